/** A block of a content page as the views and mails write it; every text is escaped there like any other value. */
export type ContentBlock =
  | { heading: string; paragraph?: never; items?: never }
  | { paragraph: string[]; heading?: never; items?: never }
  | { items: string[]; heading?: never; paragraph?: never };

/**
 * A page body in plain text as blocks: blank lines part paragraphs, a line starting with `## ` is a heading, lines
 * starting with `- ` make a list, other lines of a paragraph keep their line breaks. Staff write text, not HTML, so
 * nothing they type can become markup or script.
 */
export function contentBlocks(body: string): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const chunk of body.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    let paragraph: string[] = [];
    let items: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ paragraph });
      if (items.length) blocks.push({ items });
      paragraph = [];
      items = [];
    };
    for (const line of lines) {
      if (line.startsWith('## ')) {
        flush();
        blocks.push({ heading: line.slice(3).trim() });
      } else if (line.startsWith('- ')) {
        if (paragraph.length) flush();
        items.push(line.slice(2).trim());
      } else {
        if (items.length) flush();
        paragraph.push(line);
      }
    }
    flush();
  }
  return blocks;
}
