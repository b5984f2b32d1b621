import { Body, Controller, Get, Inject, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { PageView, Redirect } from '../../web/answers/answers';
import { BANKPAY_BASE } from './bankpay-sandbox.model';
import { CardPayRequest, checkCardPayRequest } from './card-pay-request';
import { BANK_KEY_ID, bankPublicKeyPem, cardPayReturn, CardPayResult, MerchantKeys } from './card-pay-signing';
import { CARD_PAY_CHOICES, cardPayPage, cardPayProblemsPage } from './card-pay.views';
import { SandboxAnswerFilter } from '../common/sandbox-answers';
import {
  allowFormRedirectTo,
  appendQuery,
  PageAnswer,
  PagePolicy,
  postedChoice,
  sandboxPage,
} from '../common/sandbox-pages';

/** The merchants this sandbox bank knows (MerchantKeys). */
export const CARD_PAY_MERCHANTS = Symbol('CARD_PAY_MERCHANTS');

/**
 * CardPay, the bank's signed card redirect (docs/integrations.md): the shopper's browser arrives with a
 * request the shop signed, chooses a result, and goes back to RURL with a return signed by HMAC and ECDSA.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller(`${BANKPAY_BASE}/cardpay`)
export class CardPaySandboxController {
  constructor(@Inject(CARD_PAY_MERCHANTS) private readonly merchants: MerchantKeys) {}

  @Get()
  show(@Query() query: Record<string, unknown>, @PagePolicy() policy: string | undefined): PageView {
    const request = this.validRequest(query);
    return sandboxPage(cardPayPage(request.params), allowFormRedirectTo(policy, request.returnUrl));
  }

  /** The shopper's choice, carrying the whole request again, so it is verified again. */
  @Post()
  decide(@Body() body: Record<string, unknown> | undefined): Redirect {
    const request = this.validRequest(body ?? {});
    const result = postedChoice(CARD_PAY_CHOICES, body?.result).value as CardPayResult;
    const back = cardPayReturn(request.keyHex, request.params, result);
    return new Redirect(appendQuery(request.returnUrl, back));
  }

  @Get('keys')
  keys() {
    return { keys: [{ id: BANK_KEY_ID, pem: bankPublicKeyPem() }] };
  }

  /** The checked request, or a 400 page listing what is wrong with it. */
  private validRequest(source: Record<string, unknown>): CardPayRequest {
    const checked = checkCardPayRequest(source, this.merchants);
    if (!checked.valid) throw new PageAnswer(400, cardPayProblemsPage(checked.problems));
    return checked;
  }
}
