import { execFileSync } from 'node:child_process';
import { GiftCardIssuer, StaffGiftCard } from '../../src/commerce/gift-cards/gift-card-issuer.service';
import { GiftCard } from '../../src/commerce/gift-cards/gift-card.entity';
import { AJAX } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { CapturedMail } from '../support/smtp-capture';
import { TestApp } from '../support/test-app';

export const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{16}$/;
export const ITEM_DETAILS = '/shop/marketing/gift-cards/item-details';

/** A card issued by staff (amount in major units), as the CP and the CLI do it. */
export function issueCard(shop: TestApp, amount: number, extra: Partial<StaffGiftCard> = {}): Promise<GiftCard> {
  return shop.app.get(GiftCardIssuer).issueByStaff({ amount, issuedBy: 'test', ...extra });
}

export function reloadCard(shop: TestApp, id: number): Promise<GiftCard> {
  return shop.dataSource.getRepository(GiftCard).findOneByOrFail({ id });
}

/** apply-gift-card as the checkout script sends it; `ip` keeps throttling counts apart between tests. */
export async function applyGiftCard(client: ShopClient, code: string, ip = '198.51.100.1') {
  const token = await client.csrfToken();
  return client.agent
    .post('/shop/cart/apply-gift-card')
    .set('X-CSRF-Token', token)
    .set('X-Forwarded-For', ip)
    .set(AJAX)
    .send({ code });
}

/** `ABCD-EFGH-JKMN-PQRS` */
export function grouped(code: string): string {
  return code.match(/.{4}/g)!.join('-');
}

/** The PDF attached to a captured message (base64 MIME part). */
export function attachedPdf(mail: CapturedMail): { filename: string; pdf: Buffer } {
  const part = /Content-Type: application\/pdf[^\r\n]*(?:\r\n[^\r\n]+)*\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(mail.raw);
  if (!part) throw new Error('no PDF attached');
  const filename = /filename="?([^";\r\n]+)"?/.exec(mail.raw.slice(mail.raw.indexOf('Content-Type: application/pdf')))!;
  return { filename: filename[1], pdf: Buffer.from(part[1].replace(/\s/g, ''), 'base64') };
}

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

export function pdfText(pdf: Buffer): string {
  return execFileSync(process.execPath, ['-e', PARSE_PDF], { input: pdf }).toString();
}
