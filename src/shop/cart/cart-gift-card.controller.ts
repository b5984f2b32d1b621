import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { CartPricingService, CartSummary } from '../../commerce/carts/cart-pricing.service';
import { MAX_GIFT_CARDS_PER_CART } from '../../commerce/carts/cart.entity';
import { CartService } from '../../commerce/carts/cart.service';
import { QuoteService } from '../../commerce/checkout/quote.service';
import { formatGiftCardCode, normalizeGiftCardCode } from '../../commerce/gift-cards/gift-card-code';
import { GiftCardRedemption } from '../../commerce/gift-cards/gift-card-redemption.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { RequiresFeature } from '../../common/decorators/requires-feature.decorator';
import { AppError } from '../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { CartSession } from './cart-session.service';
import { cartChanged } from './cart-summaries.service';
import { GiftCardCodeDto } from './dto/gift-card.dto';
import { cartErrors } from '../../commerce/carts/carts-errors';
import { giftCardErrors } from '../../commerce/gift-cards/gift-cards-errors';

/** Codes tried per minute and IP: enough for a family's stack of cards, too few to guess one. */
export const GIFT_CARD_APPLY_LIMIT = 30;

/**
 * Paying with gift cards (docs/http-contract.md), only while `salesGiftCardsEnabled` is on: `{ code }` →
 * `{ success, message, cart }`, the cart priced as checkout prices it, with `giftCards` and `amountDue`.
 */
@ApiTags('cart')
@RequiresFeature('salesGiftCardsEnabled')
@Controller('shop/cart')
export class CartGiftCardController {
  constructor(
    private readonly carts: CartService,
    private readonly redemption: GiftCardRedemption,
    private readonly quotes: QuoteService,
    private readonly pricing: CartPricingService,
    private readonly currencies: CurrencyService,
    private readonly session: CartSession,
  ) {}

  /** A code that cannot pay now (unknown, expired, used up, another currency) is a 400 saying why. */
  @Post('apply-gift-card')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: GIFT_CARD_APPLY_LIMIT, ttl: 60_000 } })
  async apply(@Body() body: GiftCardCodeDto, @Req() req: Request) {
    const cart = await this.session.current(req);
    if (!cart || (await this.carts.lines(cart.id)).length === 0) {
      throw cartErrors.cart_empty();
    }
    const currency = await this.currencies.chosenOrBase(cart.currency);
    const card = await this.redemption.findSpendable(body.code, currency.code);
    const codes = cart.giftCardCodes ?? [];
    if (!codes.includes(card.code)) {
      if (codes.length >= MAX_GIFT_CARDS_PER_CART) {
        throw giftCardErrors.gift_card_limit({ max: MAX_GIFT_CARDS_PER_CART });
      }
      await this.carts.setGiftCards(cart.id, [...codes, card.code]);
    }
    const message = `Gift card ${formatGiftCardCode(card.code)} applied.`;
    return cartChanged(message, () => this.summary(cart.id));
  }

  @Post('remove-gift-card')
  @HttpCode(200)
  async remove(@Body() body: GiftCardCodeDto, @Req() req: Request) {
    const cart = await this.session.current(req);
    const code = normalizeGiftCardCode(body.code);
    const codes = cart?.giftCardCodes ?? [];
    if (!cart || !code || !codes.includes(code)) {
      throw AppError.notFound(`Gift card ${body.code.trim().slice(0, 40)} is not applied to your cart.`);
    }
    await this.carts.setGiftCards(
      cart.id,
      codes.filter((applied) => applied !== code),
    );
    const message = `Gift card ${formatGiftCardCode(code)} removed.`;
    return cartChanged(message, () => this.summary(cart.id));
  }

  /** The cart as checkout prices it (shipping and fees included), so `amountDue` is what is left to pay. */
  private async summary(cartId: number): Promise<CartSummary> {
    const cart = await this.carts.findOpen(cartId);
    if (!cart) throw cartErrors.cart_closed();
    return this.pricing.summarize((await this.quotes.quote(cart)).priced);
  }
}
