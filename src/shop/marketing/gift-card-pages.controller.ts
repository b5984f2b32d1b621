import { Controller, Get, Header, Param, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { GiftCardDesigns } from '../../commerce/gift-cards/gift-card-designs.service';
import { GiftCardRedemption } from '../../commerce/gift-cards/gift-card-redemption.service';
import { GiftCardVouchers } from '../../commerce/gift-cards/gift-card-vouchers.service';
import { giftCardState } from '../../commerce/gift-cards/gift-card.entity';
import { productUrl } from '../../commerce/products/catalog-product';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { StoreService } from '../../commerce/stores/store.service';
import { RequiresFeature } from '../../common/decorators/requires-feature.decorator';
import { AppError } from '../../common/errors/app-error';
import { toMajor } from '../../common/money';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FileAnswer, JsonAnswer, PageView } from '../../web/answers/answers';

/** Lookups by code per minute and IP: plenty for a shopper, far too few to search the code space. */
export const GIFT_CARD_LOOKUP_LIMIT = 30;

/** The gift-card pages (previews and voucher details), registered only while `salesGiftCardsEnabled` is on. */
@ApiExcludeController()
@RequiresFeature('salesGiftCardsEnabled')
@Controller('shop/marketing/gift-cards')
export class GiftCardPagesController {
  constructor(
    private readonly designs: GiftCardDesigns,
    private readonly redemption: GiftCardRedemption,
    private readonly vouchers: GiftCardVouchers,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** A design as a card, and the products that sell it. */
  @Get('preview/:id')
  async preview(@Param('id') id: string): Promise<PageView> {
    const design = /^\d{1,9}$/.test(id) ? await this.designs.find(Number(id)) : null;
    if (!design) throw AppError.notFound('This gift-card design does not exist.');
    const [store, products] = await Promise.all([this.stores.default(), this.designs.products(design.id)]);
    return new PageView('shop/marketing/gift-card-preview', {
      title: `${design.name} gift card`,
      design,
      storeName: store.name,
      products: products
        .filter((product) => product.enabled && product.visible)
        .map((product) => ({ name: product.name, url: productUrl(product, this.config.baseUrl) })),
    });
  }

  /** The voucher of a code as a PDF, as it was mailed. */
  @Get('preview-card/:code')
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: GIFT_CARD_LOOKUP_LIMIT, ttl: 60_000 } })
  @Header('Cache-Control', 'private, no-store')
  @Header('X-Robots-Tag', 'noindex')
  async previewCard(@Param('code') code: string): Promise<FileAnswer> {
    const card = await this.redemption.byCode(code);
    if (!card) throw AppError.notFound('No gift card has this code.');
    const { filename, pdf } = await this.vouchers.voucher(card);
    return new FileAnswer(pdf, { type: 'application/pdf', filename, disposition: 'inline' });
  }

  /** `{ success, code, balance, currency, expiresAt, status }`; JSON for every caller, a browser too. */
  @Get('item-details/:code')
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: GIFT_CARD_LOOKUP_LIMIT, ttl: 60_000 } })
  @Header('Cache-Control', 'private, no-store')
  async itemDetails(@Param('code') code: string) {
    const card = await this.redemption.byCode(code);
    if (!card) {
      // Answered here rather than thrown: the exception filter would show a browser an HTML error page.
      return new JsonAnswer(404, {
        success: false,
        error: { code: 'gift_card_unknown', message: 'No gift card has this code.' },
      });
    }
    const { decimals } = await this.currencies.recorded(card.currency);
    return {
      success: true,
      code: card.code,
      balance: toMajor(card.balance, decimals),
      currency: card.currency,
      expiresAt: card.expiresAt === null ? null : new Date(card.expiresAt).toISOString(),
      status: giftCardState(card),
    };
  }
}
