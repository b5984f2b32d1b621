import { readFile } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { DataSource, LessThan } from 'typeorm';
import { startPdf } from '../../common/pdf';
import { addressLines, MoneyFormat } from '../orders/order-summary';
import { OrderLine } from '../orders/order-line.entity';
import { Order } from '../orders/order.entity';
import { OrdersService } from '../orders/orders.service';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { ratePercent } from '../tax/tax-class';
import { creditedParts, creditedRows, VatBreakdown, vatBreakdown } from './invoice-vat';
import { SalesDocument } from './sales-document.entity';

interface Column {
  x: number;
  width: number;
  align: 'left' | 'right';
}

const LEFT = 50;
const LINE_COLUMNS: Column[] = [
  { x: LEFT, width: 240, align: 'left' },
  { x: 295, width: 50, align: 'right' },
  { x: 350, width: 95, align: 'right' },
  { x: 450, width: 95, align: 'right' },
];
const VAT_COLUMNS: Column[] = [
  { x: LEFT, width: 105, align: 'left' },
  { x: 160, width: 95, align: 'right' },
  { x: 260, width: 95, align: 'right' },
  { x: 360, width: 95, align: 'right' },
];
const TOTAL_COLUMNS: Column[] = [
  { x: 250, width: 195, align: 'right' },
  { x: 450, width: 95, align: 'right' },
];

const REGULAR = 'DejaVuSans';
const BOLD = 'DejaVuSans-Bold';

/**
 * DejaVu Sans (Bitstream Vera licence: free to embed and pass on) covers every Latin letter of the shop's languages
 * and its customers' names (Slovak ľ ĺ ŕ ô, Czech ě ř ů, Hungarian ő ű), Greek and Cyrillic; the standard PDF
 * fonts stop at Windows-1252. pdfkit embeds only the letters a document uses. Read at the first document.
 */
let fonts: Promise<Record<string, Buffer>> | undefined;
function documentFonts(): Promise<Record<string, Buffer>> {
  fonts ??= Promise.all(
    [REGULAR, BOLD].map(async (name) => [name, await readFile(require.resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`))]),
  ).then(Object.fromEntries);
  return fonts;
}

/** Letters as one form (a composed č, not c and a caron) and odd spaces as plain ones. */
function printable(text: string): string {
  return text.normalize('NFC').replace(/[^\S\n]/g, ' ');
}

/** A document's file name: its kind and number, with whatever a file name should not hold made a dash. */
export function documentFilename(document: Pick<SalesDocument, 'kind' | 'number'>): string {
  const kind = document.kind === 'invoice' ? 'invoice' : 'credit-note';
  return `${kind}-${document.number.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
}

/**
 * Draws invoices and credit notes: seller (as the document recorded them at issue), buyer, lines, totals and the
 * VAT summary. A document is drawn once and stored; this is only called for one that has no PDF yet.
 */
@Injectable()
export class SalesDocumentPdf {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersService,
    private readonly currencies: CurrencyService,
    private readonly stores: StoreService,
  ) {}

  /** `invoice` is the invoice a credit note refers to (ignored for an invoice). */
  async render(document: SalesDocument, order: Order, invoice: SalesDocument | null): Promise<Buffer> {
    const store = await this.stores.byId(order.storeId);
    const [lines, money, fontFiles] = await Promise.all([
      this.orders.lines(order.id),
      this.currencies.formatter(order.currency, store.language),
      documentFonts(),
    ]);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: document.seller.timeZone });
    const credit = document.kind === 'credit_note';
    const title = `${credit ? 'Credit note' : 'Invoice'} ${document.number}`;
    const { doc, done } = await startPdf({
      size: 'A4',
      margin: LEFT,
      // The issue time, not the drawing time: nothing in the file depends on when it was drawn.
      info: { Title: title, CreationDate: document.dateCreated, ModDate: document.dateCreated },
    });
    for (const [name, data] of Object.entries(fontFiles)) doc.registerFont(name, data);
    doc.font(BOLD).fontSize(20).text(printable(title));
    doc.moveDown();
    parties(doc, document.seller.lines, buyer(order));
    doc.moveDown();
    doc.font(REGULAR).fontSize(10);
    const facts = credit
      ? [
          `Credit note number: ${document.number}`,
          `Date of issue: ${day.format(document.dateCreated)}`,
          `Corrects invoice: ${invoice?.number ?? ''}${invoice ? ` of ${day.format(invoice.dateCreated)}` : ''}`,
          `Order: ${order.reference} of ${day.format(order.dateCreated)}`,
        ]
      : [
          `Invoice number: ${document.number}`,
          `Invoice date: ${day.format(document.dateCreated)}`,
          `Order: ${order.reference} of ${day.format(order.dateCreated)}`,
          `Payment: ${order.paymentName || order.paymentMethod}`,
          `Shipping: ${order.shippingName || order.shippingMethod}`,
        ];
    for (const fact of facts) doc.text(printable(fact));
    doc.moveDown();
    const vat = vatBreakdown(order, document.seller.taxRate);
    if (credit) {
      creditLines(doc, document, order, money);
      doc.moveDown();
      const earlier = await this.dataSource.getRepository(SalesDocument).find({
        where: { orderId: order.id, kind: 'credit_note', id: LessThan(document.id) },
        order: { id: 'ASC' },
      });
      vatTable(doc, order, creditedVat(vat, document, earlier), money, -1);
    } else {
      lineTable(doc, lines, money);
      doc.moveDown();
      totals(doc, order, vat, money);
      doc.moveDown();
      vatTable(doc, order, vat, money, 1);
    }
    doc.end();
    return done;
  }
}

function buyer(order: Order): string[] {
  return [
    order.companyName,
    ...addressLines(order.billingAddress),
    order.vatId ? `VAT ID: ${order.vatId}` : null,
    order.email,
  ].filter((line): line is string => Boolean(line));
}

function lineTable(doc: PDFKit.PDFDocument, lines: OrderLine[], money: MoneyFormat): void {
  row(doc, LINE_COLUMNS, ['Item', 'Qty', 'Unit price', 'Total'], true);
  for (const line of lines) {
    const options = Object.entries(line.configuration ?? {}).map(([code, value]) => `${code}: ${value}`);
    const name = [line.name, `SKU ${line.sku}`, ...options].join('\n');
    row(doc, LINE_COLUMNS, [name, String(line.qty), money(line.price), money(line.total)]);
  }
}

/** What a credit note gives back: its lines when the refund named them, else one line for the order. */
function creditLines(doc: PDFKit.PDFDocument, note: SalesDocument, order: Order, money: MoneyFormat): void {
  row(doc, LINE_COLUMNS, ['Item', 'Qty', '', 'Credited'], true);
  const lines = note.lines?.length
    ? note.lines
    : [{ name: `Refund for order ${order.reference}`, qty: 1, amount: note.amount }];
  for (const line of lines) row(doc, LINE_COLUMNS, [line.name, String(line.qty), '', `-${money(line.amount)}`]);
  doc.moveDown();
  row(doc, TOTAL_COLUMNS, ['Total credited', `-${money(note.amount)}`], true);
}

/**
 * The VAT inside a credit note: its lines at their rates, the rest spread over what the earlier credit notes left
 * (the invoice's rows are in percent).
 */
function creditedVat(invoiceVat: VatBreakdown, note: SalesDocument, earlier: SalesDocument[]): VatBreakdown {
  const inPercent = (document: SalesDocument) =>
    creditedParts(document).map(({ amount, rate }) => ({ amount, rate: rate === null ? null : ratePercent(rate) }));
  return { rows: creditedRows(invoiceVat.rows, inPercent(note), earlier.map(inPercent)), notCharged: 0 };
}

function totals(doc: PDFKit.PDFDocument, order: Order, vat: VatBreakdown, money: MoneyFormat): void {
  row(doc, TOTAL_COLUMNS, ['Subtotal', money(order.subtotal)]);
  if (order.discount > 0) {
    const label = order.couponCode ? `Discount (${order.couponCode})` : 'Discount';
    row(doc, TOTAL_COLUMNS, [label, `-${money(order.discount)}`]);
  }
  row(doc, TOTAL_COLUMNS, [`Shipping (${order.shippingName || order.shippingMethod})`, money(order.shippingTotal)]);
  if (order.paymentFee > 0) {
    row(doc, TOTAL_COLUMNS, [`Payment fee (${order.paymentName})`, money(order.paymentFee)]);
  }
  if (vat.notCharged > 0) {
    row(doc, TOTAL_COLUMNS, ['VAT not charged (reverse charge)', `-${money(vat.notCharged)}`]);
  }
  row(doc, TOTAL_COLUMNS, ['Total', money(order.total)], true);
}

/** The VAT summary; `sign` -1 shows a credit note's amounts as taken back. */
function vatTable(doc: PDFKit.PDFDocument, order: Order, vat: VatBreakdown, money: MoneyFormat, sign: 1 | -1): void {
  const signed = (minor: number) => (sign < 0 && minor > 0 ? `-${money(minor)}` : money(minor));
  doc.font(BOLD).text('VAT summary', LEFT);
  row(doc, VAT_COLUMNS, ['Rate', 'Net', 'VAT', 'Gross'], true);
  for (const rate of vat.rows) {
    row(doc, VAT_COLUMNS, [`${rate.rate} %`, signed(rate.net), signed(rate.vat), signed(rate.net + rate.vat)]);
  }
  if (order.reverseCharge) {
    doc.moveDown();
    const note = `Reverse charge: VAT to be accounted for by the customer (VAT ID ${order.vatId ?? ''}).`;
    doc.font(REGULAR).text(printable(note), LEFT);
  }
}

/** Seller on the left, buyer on the right, each under a bold heading. */
function parties(doc: PDFKit.PDFDocument, seller: string[], buyer: string[]): void {
  const top = doc.y;
  const block = (x: number, heading: string, lines: string[]) => {
    doc.font(BOLD).fontSize(11).text(heading, x, top, { width: 240 });
    doc.font(REGULAR).fontSize(10);
    for (const line of lines) doc.text(printable(line), x, doc.y, { width: 240 });
    return doc.y;
  };
  const bottom = Math.max(block(LEFT, 'Seller', seller), block(305, 'Buyer', buyer));
  doc.x = LEFT;
  doc.y = bottom;
}

/** One table row; a row that does not fit on the page starts the next one. */
function row(doc: PDFKit.PDFDocument, columns: Column[], cells: string[], bold = false): void {
  doc.font(bold ? BOLD : REGULAR).fontSize(10);
  const texts = cells.map(printable);
  const height = Math.max(...texts.map((text, index) => doc.heightOfString(text, { width: columns[index].width })));
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const top = doc.y;
  texts.forEach((text, index) => {
    const { x, width, align } = columns[index];
    doc.text(text, x, top, { width, align });
  });
  doc.x = LEFT;
  doc.y = top + height + 4;
}
