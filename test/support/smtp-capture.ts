import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
}

/** One part of a message as a reader sees it: its type (`text/plain`, `text/html`, …) and its decoded content. */
export interface MailPart {
  type: string;
  content: string;
}

/** A header's value (folded lines joined), or '' when absent. */
function headerOf(head: string, name: string): string {
  const unfolded = head.replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \t]*(.*)$`, 'im').exec(unfolded)?.[1].trim() ?? '';
}

/** A body decoded from its transfer encoding: quoted-printable soft line breaks joined and escapes decoded, base64. */
function decodeBody(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (!/quoted-printable/i.test(encoding)) return body;
  const escaped = body.replace(/=\r\n/g, '').replace(/%/g, '%25');
  return decodeURIComponent(escaped.replace(/=([0-9A-F]{2})/g, '%$1'));
}

/** The leaf parts of a MIME entity (headers, blank line, body), multiparts opened to any depth. */
function partsOf(entity: string): MailPart[] {
  const split = entity.indexOf('\r\n\r\n');
  const [head, body] = split < 0 ? [entity, ''] : [entity.slice(0, split), entity.slice(split + 4)];
  const contentType = headerOf(head, 'Content-Type') || 'text/plain';
  const type = contentType.split(';')[0].trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!type.startsWith('multipart/') || !boundary) {
    return [{ type, content: decodeBody(body, headerOf(head, 'Content-Transfer-Encoding')) }];
  }
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((part) => partsOf(part.replace(/^\r\n/, '')));
}

/** Every leaf part of the message: for an order mail a `text/plain` and a `text/html` one. */
export function mailParts(mail: CapturedMail): MailPart[] {
  return partsOf(mail.raw);
}

/** The message's text as a reader sees it: its plain-text part (a one-part message's body), decoded, lines ending in \n. */
export function mailText(mail: CapturedMail): string {
  const parts = mailParts(mail);
  return (parts.find((part) => part.type === 'text/plain') ?? parts[0]).content.replace(/\r\n/g, '\n');
}

/** The message's HTML part, decoded; '' when it has none. */
export function mailHtml(mail: CapturedMail): string {
  return mailParts(mail).find((part) => part.type === 'text/html')?.content ?? '';
}

/** The Content-Type header of the whole message, e.g. `multipart/alternative; boundary=…`. */
export function contentTypeOf(mail: CapturedMail): string {
  return headerOf(mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')), 'Content-Type');
}

/** The subject as a reader sees it: folded lines joined, RFC 2047 encoded words (a Slovak subject) decoded. */
export function subjectOf(mail: CapturedMail): string {
  const subject = headerOf(mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')), 'Subject');
  return subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_word, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

/** The password-reset message sent to `email` among `messages`, if one arrived (registration mails come too). */
export function resetMailTo(messages: CapturedMail[], email: string): CapturedMail | undefined {
  return messages.find((mail) => mail.to.includes(email) && subjectOf(mail).startsWith('Reset your password at '));
}

/** The PDF attached to a captured message (base64 MIME part). */
export function attachedPdf(mail: CapturedMail): { filename: string; pdf: Buffer } {
  const part = /Content-Type: application\/pdf[^\r\n]*(?:\r\n[^\r\n]+)*\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(mail.raw);
  if (!part) throw new Error('no PDF attached');
  const filename = /filename="?([^";\r\n]+)"?/.exec(mail.raw.slice(mail.raw.indexOf('Content-Type: application/pdf')))!;
  return { filename: filename[1], pdf: Buffer.from(part[1].replace(/\s/g, ''), 'base64') };
}

/** A real SMTP listener on loopback that keeps every message it is given. */

export async function startSmtpCapture(): Promise<{ url: string; messages: CapturedMail[]; close(): Promise<void> }> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
