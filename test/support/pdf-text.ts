import { execFileSync } from 'node:child_process';
import type { Response } from 'superagent';

/**
 * pdf-parse loads pdf.js through a dynamic import, which Jest's module system refuses; a plain Node
 * process reads the PDF instead.
 */
const PARSE_PDF = `
const { PDFParse } = require('pdf-parse');
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk)).on('end', async () => {
  const parser = new PDFParse({ data: Buffer.concat(chunks) });
  process.stdout.write((await parser.getText()).text);
  await parser.destroy();
});`;

/** The text a PDF reader extracts from `pdf`. */
export function pdfText(pdf: Buffer): string {
  return execFileSync(process.execPath, ['-e', PARSE_PDF], { input: pdf }).toString();
}

/** A supertest parser that keeps a binary body (a PDF) as one buffer. */
export function binaryBody(res: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}
