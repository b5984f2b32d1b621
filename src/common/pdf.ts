/** Helpers for the PDFs the service draws with pdfkit (invoices and credit notes, gift-card vouchers, sandbox labels). */

export interface PdfInProgress {
  doc: PDFKit.PDFDocument;
  /** The finished document as one buffer, once `doc.end()` is called. */
  done: Promise<Buffer>;
}

/**
 * A new document and the buffer it will become. pdfkit and its font tables load at the first PDF, not at start-up:
 * most processes (every CLI command, most app instances between two invoices) never draw one.
 */
export async function startPdf(options: PDFKit.PDFDocumentOptions): Promise<PdfInProgress> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument(options);
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/** Windows-1252 characters above Latin-1 that the standard PDF fonts can draw. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Vouchers and labels use the standard PDF fonts (nothing to embed), which cover Windows-1252 only: other
 * letters lose their accents (č → c), spaces of other widths become plain spaces, and whatever is left
 * becomes "?" instead of a broken glyph.
 */
export function pdfText(text: string): string {
  return text.normalize('NFC').replace(/[^\x20-\x7e\xa0-\xff\n]/g, (char) => {
    if (WIN_ANSI_EXTRA.has(char)) return char;
    if (/\s/.test(char)) return ' ';
    const plain = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    return /^[\x20-\x7e\xa0-\xff]+$/.test(plain) ? plain : '?';
  });
}
