import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';
import { PageView } from '../../web/answers/answers';
import { SandboxAnswer } from './sandbox-answers';

/** Markup that is already safe to emit; everything else interpolated into `markup` is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** Template tag that escapes every interpolated value (arrays are joined; SafeHtml passes as is). */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, i) => out + renderValue(values[i - 1]) + text));
}

function renderValue(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A whole sandbox bank page. No scripts or inline styles: the app's CSP forbids them, and every form
 * works without JavaScript.
 */
export function bankPage(title: string, content: SafeHtml): SafeHtml {
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Sandbox bank</title>
<link rel="icon" href="/public/images/favicon.svg" type="image/svg+xml">
</head>
<body>
<main>
<h1>Sandbox bank</h1>
<p>A local stand-in for the bank gateway: no money moves.</p>
<h2>${title}</h2>
${content}
</main>
</body>
</html>
`;
}

/** A page that only says what happened, e.g. for an unknown payment or a bad request. */
export function messagePage(title: string, message: string): SafeHtml {
  return bankPage(title, markup`<p>${message}</p>`);
}

export interface Choice {
  value: string;
  label: string;
}

/** A form that posts one of `choices` as `name` (one submit button each), carrying `hidden` fields along. */
export function choiceForm(
  action: string,
  name: string,
  choices: Choice[],
  hidden: Record<string, string> = {},
): SafeHtml {
  const fields = Object.entries(hidden).map(
    ([field, value]) => markup`<input type="hidden" name="${field}" value="${value}">\n`,
  );
  const buttons = choices.map(
    (choice) => markup`<button type="submit" name="${name}" value="${choice.value}">${choice.label}</button>\n`,
  );
  return markup`<form method="post" action="${action}">\n${fields}<p>\n${buttons}</p>\n</form>`;
}

/** Facts shown as a definition list, in order. */
export function factList(facts: Array<[string, string]>): SafeHtml {
  const items = facts.map(([term, detail]) => markup`<dt>${term}</dt><dd>${detail}</dd>\n`);
  return markup`<dl>\n${items}</dl>`;
}

/**
 * A sandbox page as a handler returns it, with a 200 and `headers`: `views/sandbox/page.hbs` sends the markup as it
 * is, without a layout.
 */
export function sandboxPage(page: SafeHtml, headers: Record<string, string> = {}): PageView {
  return new PageView('sandbox/page', { layout: false, html: page.value }, { status: 200, headers });
}

/** Writes a page answered instead of the handler's result (`SandboxAnswerFilter`). */
export function sendPage(res: Response, status: number, page: SafeHtml): void {
  res.status(status).type('html').send(page.value);
}

/** A page answered instead of the handler's result (404, 409, 400). */
export class PageAnswer extends SandboxAnswer {
  constructor(
    readonly status: number,
    readonly page: SafeHtml,
  ) {
    super(`HTTP ${status} page`);
  }

  /** A page that only says what is wrong. */
  static message(status: number, title: string, detail: string): PageAnswer {
    return new PageAnswer(status, messagePage(title, detail));
  }

  send(res: Response): void {
    sendPage(res, this.status, this.page);
  }
}

/** The choice a form posted, or a 400 page naming the accepted values. */
export function postedChoice<T extends Choice>(choices: T[], posted: unknown): T {
  const choice = choices.find((candidate) => candidate.value === posted);
  if (!choice) {
    const accepted = choices.map((candidate) => candidate.value).join(', ');
    throw PageAnswer.message(
      400,
      'Unknown choice',
      `The form sent "${String(posted ?? '')}"; the bank accepts ${accepted}.`,
    );
  }
  return choice;
}

/**
 * `@PagePolicy() policy`: the Content-Security-Policy the app set for this response (helmet's, built per request),
 * if any; `allowFormRedirectTo` widens it for a page.
 */
export const PagePolicy = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const policy = context.switchToHttp().getResponse<Response>().getHeader('Content-Security-Policy');
  return typeof policy === 'string' ? policy : undefined;
});

/**
 * The headers that let a page's forms end in a redirect to `target`'s origin: `policy` with that origin added to
 * `form-action` (none without a policy). The app's CSP says `form-action 'self'`, and browsers apply it to the
 * redirect after a form post too; the shop that receives the shopper back (the Redirect-URI, RURL) is usually on
 * another origin than the sandbox URL the API handed out.
 */
export function allowFormRedirectTo(policy: string | undefined, target: string): Record<string, string> {
  if (policy === undefined) return {};
  const origin = new URL(target).origin;
  const directives = policy
    .split(';')
    .map((directive) => (directive.trim().startsWith('form-action') ? `${directive.trim()} ${origin}` : directive));
  return { 'Content-Security-Policy': directives.join(';') };
}

/** Appends query parameters to a URL kept as given (`?` or `&`), before any fragment. */
export function appendQuery(url: string, params: Record<string, string>): string {
  const hashAt = url.indexOf('#');
  const base = hashAt < 0 ? url : url.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : url.slice(hashAt);
  const separator = base.includes('?') ? '&' : '?';
  return `${base}${separator}${new URLSearchParams(params).toString()}${fragment}`;
}
