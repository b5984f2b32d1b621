/** The longest address SMTP carries (RFC 5321 forward path); longer text is no address and is not looked at. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * Whether `text` reads as an e-mail address: at most 254 characters, no whitespace, one `@` with text
 * before it and a domain with a dot inside. The length is checked first and the rest in one pass each: the
 * pattern this replaces backtracked quadratically, and an 80 KB webhook value held the event loop (and
 * every request) for seconds.
 */
export function isEmailAddress(text: string): boolean {
  if (text.length > MAX_EMAIL_LENGTH || /\s/.test(text)) return false;
  const at = text.indexOf('@');
  if (at < 1 || text.includes('@', at + 1)) return false;
  // A dot with at least one character of the domain on either side.
  return text.slice(at + 2, -1).includes('.');
}

/** An address as stored and compared: trimmed, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
