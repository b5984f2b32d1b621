/** What Handlebars escapes in a value, back to the characters a browser would send. */
function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x60;/g, '`')
    .replace(/&#x3D;/g, '=')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/**
 * The fields a browser would post for the first form of `html` posting to `action`, untouched: text, number and
 * hidden inputs with their values, ticked boxes as `on`, each select's chosen option, textareas' text. Unticked
 * boxes and password fields are left out, as a browser leaves them (the password blank).
 */
export function formFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`<form method="post" action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    const type = attribute(tag, 'type') ?? 'text';
    if (!name || type === 'password' || (type === 'checkbox' && !/\schecked\b/.test(tag))) continue;
    fields[name] = unescapeHtml(attribute(tag, 'value') ?? '');
  }
  for (const [, tag, options] of form.matchAll(/(<select\b[^>]*>)([\s\S]*?)<\/select>/g)) {
    const chosen = /<option value="([^"]*)"\s*selected/.exec(options) ?? /<option value="([^"]*)"/.exec(options);
    fields[attribute(tag, 'name')!] = unescapeHtml(chosen?.[1] ?? '');
  }
  for (const [, tag, text] of form.matchAll(/(<textarea\b[^>]*>)([\s\S]*?)<\/textarea>/g)) {
    fields[attribute(tag, 'name')!] = unescapeHtml(text);
  }
  return fields;
}
