import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
}

/** The message's text as a reader sees it: quoted-printable soft line breaks joined, escapes decoded. */
export function mailText(mail: CapturedMail): string {
  const body = mail.raw.slice(mail.raw.indexOf('\r\n\r\n') + 4);
  const escaped = body.replace(/=\r\n/g, '').replace(/%/g, '%25');
  return decodeURIComponent(escaped.replace(/=([0-9A-F]{2})/g, '%$1'));
}

export function subjectOf(mail: CapturedMail): string {
  return /^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? '';
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
