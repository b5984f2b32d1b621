import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { SettingsService } from '../../config/settings.service';
import { FormAnswer } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CookieConsentDto } from './dto/cookie-consent.dto';

/**
 * The cookie notice's two buttons: the answer is kept in the session (a cookie the shop needs anyway), and the
 * layout loads the optional script only after `accept` (src/web/cookie-notice.ts).
 */
@ApiTags('catalog')
@Controller('shop/cookie-consent')
export class CookieConsentController {
  constructor(private readonly settings: SettingsService) {}

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ description: '{ success: true, cookieConsent }; a browser form is redirected back with a flash' })
  answer(@Body() body: CookieConsentDto, @Req() req: Request, @PageText() text: PageTextFn): FormAnswer {
    const cookieConsent = body.choice === 'accept' ? 'accepted' : 'declined';
    req.session.cookieConsent = cookieConsent;
    const script = this.settings.get('privacyOptionalScriptUrl');
    const message = text(`consent.cookies.${cookieConsent}`, { script: script ? new URL(script).host : '' });
    return new FormAnswer(message, { back: '/' }, () => ({ success: true, cookieConsent }));
  }
}
