import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { parseIsoMoment } from '../../commerce/coupons/coupon-input';
import { formatGiftCardCode, maskGiftCardCode } from '../../commerce/gift-cards/gift-card-code';
import { GiftCardDesigns } from '../../commerce/gift-cards/gift-card-designs.service';
import { GiftCardIssuer } from '../../commerce/gift-cards/gift-card-issuer.service';
import { GiftCardLedger } from '../../commerce/gift-cards/gift-card-ledger.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { answerCpPost } from '../../common/cp-form-post';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { CpGiftCardStatusDto, CpIssueGiftCardDto } from './cp-gift-card-forms.dto';
import { CpGiftCardsService } from './cp-gift-cards.service';

/**
 * Gift cards as staff see them, behind `accessMarketing`: the list (codes masked), issuing a card by hand,
 * and switching one off. A new card's full code is shown once, in the message that answers its issue.
 */
@ApiExcludeController()
@CpPermission('accessMarketing')
@Controller('gift-cards')
export class CpGiftCardsController {
  constructor(
    private readonly list: CpGiftCardsService,
    private readonly issuer: GiftCardIssuer,
    private readonly ledger: GiftCardLedger,
    private readonly designs: GiftCardDesigns,
    private readonly currencies: CurrencyService,
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery, @Res() res: Response): Promise<void> {
    const page = query.pageNumber;
    res.render('cp/gift-cards', {
      layout: 'cp',
      title: 'Gift cards',
      ...(await this.list.list(page, query.q)),
      page,
      q: query.q ?? '',
      enabled: this.settings.isOn('salesGiftCardsEnabled'),
    });
  }

  @Get('new')
  async form(@Res() res: Response): Promise<void> {
    const [currencies, base, designs] = await Promise.all([
      this.currencies.all(),
      this.currencies.base(),
      this.designs.list(),
    ]);
    res.render('cp/gift-cards-new', {
      layout: 'cp',
      title: 'Issue a gift card',
      currencies: currencies.map((currency) => ({ code: currency.code, selected: currency.code === base.code })),
      designs,
      validityMonths: this.settings.get<number>('salesGiftCardsValidityMonths'),
    });
  }

  @Post()
  issue(@Body() body: CpIssueGiftCardDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return answerCpPost(req, res, {
      page: `/${this.config.cpTrigger}/gift-cards`,
      action: async () => {
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
        return {
          message: `Gift card ${formatGiftCardCode(card.code)} issued.${mailed}`,
          code: card.code,
        };
      },
    });
  }

  /** Switches a card off (lost or stolen) or on again. */
  @Post(':id/status')
  setStatus(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpGiftCardStatusDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return answerCpPost(req, res, {
      page: `/${this.config.cpTrigger}/gift-cards`,
      action: async () => {
        const card = await this.ledger.setDisabled(id, body.status === 'disabled');
        return { message: `Gift card ${maskGiftCardCode(card.code)} is now ${card.status}.`, status: card.status };
      },
    });
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
