import { Injectable } from '@nestjs/common';
import { Order } from '../../../commerce/orders/order.entity';
import { OrderLine } from '../../../commerce/orders/order-line.entity';
import { OrdersService } from '../../../commerce/orders/orders.service';
import { Store } from '../../../commerce/stores/store.entity';
import { StoreService } from '../../../commerce/stores/store.service';
import { countryName } from '../../../common/countries';
import { pdfText, startPdf } from '../../../common/pdf';
import { SettingsService } from '../../../config/settings.service';
import { addressLines, MoneyFormat } from '../../../commerce/orders/order-summary';
import { AccountOrderViews } from './account-order-view.service';
import { CustomerOrdersService } from '../../../commerce/customers/customer-orders.service';
import { invoiceNumber } from '../../../commerce/invoices/invoice-number';
import { VatBreakdown, vatBreakdown } from '../../../commerce/invoices/invoice-vat';

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

export interface InvoiceFile {
  filename: string;
  pdf: Buffer;
}

/** The invoice of an order as a PDF: seller, buyer, lines, totals and the VAT summary. */
@Injectable()
export class InvoicePdfService {
  constructor(
    private readonly orders: OrdersService,
    private readonly customerOrders: CustomerOrdersService,
    private readonly views: AccountOrderViews,
    private readonly stores: StoreService,
    private readonly settings: SettingsService,
  ) {}

  async render(order: Order): Promise<InvoiceFile> {
    const [lines, money, store, invoicedAt] = await Promise.all([
      this.orders.lines(order.id),
      this.views.money(order),
      this.stores.byId(order.storeId),
      this.customerOrders.invoicedAt(order),
    ]);
    const number = invoiceNumber(order);
    const vat = vatBreakdown(order, this.settings.get('salesTaxRate'));
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: this.settings.get('salesTimezone') });

    const { doc, done } = await startPdf({ size: 'A4', margin: LEFT, info: { Title: `Invoice ${number}` } });
    doc
      .font('Helvetica-Bold')
      .fontSize(20)
      .text(pdfText(`Invoice ${number}`));
    doc.moveDown();
    parties(doc, this.seller(store), buyer(order));
    doc.moveDown();
    doc.font('Helvetica').fontSize(10);
    for (const fact of [
      `Invoice number: ${number}`,
      `Invoice date: ${day.format(invoicedAt)}`,
      `Order: ${order.reference} of ${day.format(order.dateCreated)}`,
      `Payment: ${order.paymentName || order.paymentMethod}`,
      `Shipping: ${order.shippingName || order.shippingMethod}`,
    ]) {
      doc.text(pdfText(fact));
    }
    doc.moveDown();
    lineTable(doc, lines, money);
    doc.moveDown();
    totals(doc, order, vat, money);
    doc.moveDown();
    vatTable(doc, order, vat, money);
    doc.end();
    return { filename: `invoice-${order.reference}.pdf`, pdf: await done };
  }

  /**
   * The shop as the seller: the account holder of the bank-transfer settings (the legal name), the store,
   * the seller's address and VAT id.
   */
  private seller(store: Store): Array<string | null> {
    const holder = this.settings.get('salesBankTransferHolder');
    const iban = this.settings.get('salesBankTransferIban');
    const bic = this.settings.get('salesBankTransferBic');
    const vatId = this.settings.get('salesSellerVatId');
    const address = this.settings
      .get('salesSellerAddress')
      .split(',')
      .map((line) => line.trim())
      .filter(Boolean);
    return [
      holder || store.name,
      holder && holder !== store.name ? store.name : null,
      ...address,
      countryName(store.country, store.language),
      vatId ? `VAT ID: ${vatId}` : null,
      iban ? `IBAN: ${iban}` : null,
      bic ? `BIC: ${bic}` : null,
    ];
  }
}

function buyer(order: Order): Array<string | null> {
  return [
    order.companyName,
    ...addressLines(order.billingAddress),
    order.vatId ? `VAT ID: ${order.vatId}` : null,
    order.email,
  ];
}

function lineTable(doc: PDFKit.PDFDocument, lines: OrderLine[], money: MoneyFormat): void {
  row(doc, LINE_COLUMNS, ['Item', 'Qty', 'Unit price', 'Total'], true);
  for (const line of lines) {
    const options = Object.entries(line.configuration ?? {}).map(([code, value]) => `${code}: ${value}`);
    const name = [line.name, `SKU ${line.sku}`, ...options].join('\n');
    row(doc, LINE_COLUMNS, [name, String(line.qty), money(line.price), money(line.total)]);
  }
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

function vatTable(doc: PDFKit.PDFDocument, order: Order, vat: VatBreakdown, money: MoneyFormat): void {
  doc.font('Helvetica-Bold').text('VAT summary', LEFT);
  row(doc, VAT_COLUMNS, ['Rate', 'Net', 'VAT', 'Gross'], true);
  for (const rate of vat.rows) {
    row(doc, VAT_COLUMNS, [`${rate.rate} %`, money(rate.net), money(rate.vat), money(rate.net + rate.vat)]);
  }
  if (order.reverseCharge) {
    doc.moveDown();
    const note = `Reverse charge: VAT to be accounted for by the customer (VAT ID ${order.vatId ?? ''}).`;
    doc.font('Helvetica').text(pdfText(note), LEFT);
  }
}

/** Seller on the left, buyer on the right, each under a bold heading. */
function parties(doc: PDFKit.PDFDocument, seller: Array<string | null>, buyer: Array<string | null>): void {
  const top = doc.y;
  const block = (x: number, heading: string, lines: Array<string | null>) => {
    doc.font('Helvetica-Bold').fontSize(11).text(heading, x, top, { width: 240 });
    doc.font('Helvetica').fontSize(10);
    for (const line of lines) if (line) doc.text(pdfText(line), x, doc.y, { width: 240 });
    return doc.y;
  };
  const bottom = Math.max(block(LEFT, 'Seller', seller), block(305, 'Buyer', buyer));
  doc.x = LEFT;
  doc.y = bottom;
}

/** One table row; a row that does not fit on the page starts the next one. */
function row(doc: PDFKit.PDFDocument, columns: Column[], cells: string[], bold = false): void {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
  const texts = cells.map(pdfText);
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
