import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { parseIsoMoment } from '../../commerce/coupons/coupon-input';
import { formatGiftCardCode, maskGiftCardCode } from '../../commerce/gift-cards/gift-card-code';
import { GiftCardDesigns } from '../../commerce/gift-cards/gift-card-designs.service';
import { GiftCardIssuer } from '../../commerce/gift-cards/gift-card-issuer.service';
import { GiftCardLedger } from '../../commerce/gift-cards/gift-card-ledger.service';
import {
  GIFT_CARD_SORTS,
  GiftCardList,
  NEWEST_GIFT_CARDS_FIRST,
} from '../../commerce/gift-cards/gift-card-list.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { requireConfirmation } from '../../common/cp-confirmation';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { BrowserTarget, FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { CpGiftCardStatusDto, CpIssueGiftCardDto } from './cp-gift-card-forms.dto';

/**
 * Gift cards as staff see them, behind `accessMarketing`: the list (codes masked), issuing a card by hand,
 * and switching one off. A new card's full code is shown once, in the message that answers its issue.
 */
@ApiExcludeController()
@CpPermission('accessMarketing')
@Controller('gift-cards')
export class CpGiftCardsController {
  constructor(
    private readonly list: GiftCardList,
    private readonly issuer: GiftCardIssuer,
    private readonly ledger: GiftCardLedger,
    private readonly designs: GiftCardDesigns,
    private readonly currencies: CurrencyService,
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery): Promise<PageView> {
    const page = query.pageNumber;
    return new PageView('cp/gift-cards', {
      layout: 'cp',
      title: 'Gift cards',
      ...(await this.list.list(page, query.q, query.sortBy(GIFT_CARD_SORTS, NEWEST_GIFT_CARDS_FIRST))),
      page,
      q: query.q ?? '',
      sort: query.sort,
      enabled: this.settings.isOn('salesGiftCardsEnabled'),
    });
  }

  @Get('new')
  async form(): Promise<PageView> {
    const [currencies, base, designs] = await Promise.all([
      this.currencies.all(),
      this.currencies.base(),
      this.designs.list(),
    ]);
    return new PageView('cp/gift-cards-new', {
      layout: 'cp',
      title: 'Issue a gift card',
      currencies: currencies.map((currency) => ({ code: currency.code, selected: currency.code === base.code })),
      designs,
      validityMonths: this.settings.get('salesGiftCardsValidityMonths'),
    });
  }

  @Post()
  @HttpCode(200)
  @RefusedGoesTo('gift-cards')
  async issue(@Body() body: CpIssueGiftCardDto, @Req() req: Request): Promise<FormAnswer> {
    const card = await this.issuer.issueByStaff({
      amount: Number(body.amount.trim().replace(',', '.')),
      currency: body.currency || undefined,
      expiresAt: body.neverExpires ? null : expiry(body.expiresAt),
      designId: body.designId ? Number(body.designId) : null,
      recipientEmail: body.recipientEmail,
      recipientName: body.recipientName,
      message: body.message,
      issuedBy: `cp:${req.cpStaff!.email}`,
    });
    const mailed = card.recipientEmail ? ` The voucher is on its way to ${card.recipientEmail}.` : '';
    return FormAnswer.done(`Gift card ${formatGiftCardCode(card.code)} issued.${mailed}`, this.listPage(), {
      code: card.code,
    });
  }

  /** Switches a card off (lost or stolen) or on again. */
  @Post(':id/status')
  @HttpCode(200)
  @RefusedGoesTo('gift-cards')
  async setStatus(@Param('id', ParseIntPipe) id: number, @Body() body: CpGiftCardStatusDto): Promise<FormAnswer> {
    const disable = body.status === 'disabled';
    if (disable) requireConfirmation(body, 'Disabling the gift card');
    const card = await this.ledger.setDisabled(id, disable);
    return FormAnswer.done(`Gift card ${maskGiftCardCode(card.code)} is now ${card.status}.`, this.listPage(), {
      status: card.status,
    });
  }

  private listPage(): BrowserTarget {
    return { to: `/${this.config.cpTrigger}/gift-cards` };
  }
}

/** The form's expiry: blank means the default validity; anything else must be a date. */
function expiry(text: string | undefined): Date | undefined {
  if (!text?.trim()) return undefined;
  const date = parseIsoMoment(text);
  if (!date) {
    throw AppError.invalid(
      { expiresAt: ['must be a date such as 2027-12-31'] },
      `The gift card was not issued: "${text}" is not a date such as 2027-12-31.`,
    );
  }
  return date;
}
