import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Injectable } from '@nestjs/common';
import { formatMoney } from '../../common/money-format';
import { pdfText, startPdf } from '../../common/pdf';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { PUBLIC_DIR } from '../../web/paths';
import { CurrencyService } from '../stores/currency.service';
import { Store } from '../stores/store.entity';
import { formatGiftCardCode } from './gift-card-code';
import { GiftCardDesign } from './gift-card-design.entity';
import { GiftCard } from './gift-card.entity';

export interface VoucherFile {
  filename: string;
  pdf: Buffer;
}

/** How a card without a design looks. */
export const DEFAULT_DESIGN: Pick<GiftCardDesign, 'name' | 'imagePath' | 'backgroundColor' | 'textColor'> = {
  name: 'Classic',
  imagePath: null,
  backgroundColor: '#1f4e3d',
  textColor: '#ffffff',
};

const MARGIN = 36;
const IMAGE_SIZE = 130;

/** The voucher of a card as a PDF: the design's colours and picture, the value, the code and how to use it. */
@Injectable()
export class GiftCardVoucherPdf {
  constructor(
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async render(
    card: GiftCard,
    design: GiftCardDesign | null,
    store: Pick<Store, 'name' | 'language'>,
  ): Promise<VoucherFile> {
    const look = design ?? DEFAULT_DESIGN;
    const currency = await this.currencies.recorded(card.currency);
    const money = (minor: number) => formatMoney(minor, currency, store.language);
    const code = formatGiftCardCode(card.code);

    const { doc, done } = await startPdf({
      size: 'A5',
      layout: 'landscape',
      margin: MARGIN,
      info: { Title: `Gift card ${code}` },
    });
    const { width, height } = doc.page;
    doc.rect(0, 0, width, height).fill(look.backgroundColor);
    const image = embeddableImage(look.imagePath);
    if (image) doc.image(image, width - MARGIN - IMAGE_SIZE, MARGIN, { fit: [IMAGE_SIZE, IMAGE_SIZE] });

    const textWidth = width - 2 * MARGIN - (image ? IMAGE_SIZE + 12 : 0);
    const line = (text: string, font: string, size: number, gap = 4) => {
      doc.font(font).fontSize(size).text(pdfText(text), MARGIN, doc.y, { width: textWidth });
      doc.moveDown(gap / size);
    };
    doc.fillColor(look.textColor);
    doc.y = MARGIN;
    line(store.name, 'Helvetica-Bold', 14);
    line('Gift card', 'Helvetica-Bold', 28, 10);
    line(money(card.initialAmount), 'Helvetica-Bold', 34, 10);
    if (card.balance !== card.initialAmount) line(`Balance left: ${money(card.balance)}`, 'Helvetica', 12);
    line(`Code: ${code}`, 'Courier-Bold', 18, 8);
    const expiry = card.expiresAt
      ? `Valid until ${new Date(card.expiresAt).toISOString().slice(0, 10)}`
      : 'No expiry date';
    line(expiry, 'Helvetica', 12);
    if (card.recipientName) line(`For: ${card.recipientName}`, 'Helvetica', 12);
    if (card.message) line(card.message, 'Helvetica-Oblique', 12);
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(
        pdfText(`Enter the code at checkout on ${this.config.baseUrl} to pay with this card.`),
        MARGIN,
        height - MARGIN - 14,
        { width: width - 2 * MARGIN },
      );
    doc.end();
    return { filename: `gift-card-${card.code}.pdf`, pdf: await done };
  }
}

/** The design's picture as a file pdfkit can draw (PNG or JPEG under public/), or null. */
function embeddableImage(imagePath: string | null): string | null {
  if (!imagePath || !/^\/public\/.+\.(png|jpe?g)$/i.test(imagePath)) return null;
  const file = resolve(PUBLIC_DIR, imagePath.slice('/public/'.length));
  return file.startsWith(PUBLIC_DIR + sep) && existsSync(file) ? file : null;
}
