import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { SettingsService } from '../../config/settings.service';
import { AppError } from '../../common/errors/app-error';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CookieConsentDto } from './dto/cookie-consent.dto';

/**
 * The cookie notice's two buttons: the answer is kept in the session (a cookie the shop needs anyway), and the
 * layout loads the optional script only after `accept` (src/web/cookie-notice.ts). The footer's "Cookie settings"
 * link opens the page that shows the notice again, to change or withdraw the answer.
 */
@ApiTags('catalog')
@Controller('shop/cookie-consent')
export class CookieConsentController {
  constructor(private readonly settings: SettingsService) {}

  /** The visitor's current answer with the notice to change it; 404 while no optional script is configured. */
  @Get()
  settingsPage(@Req() req: Request, @PageText() text: PageTextFn): PageView {
    const script = this.settings.get('privacyOptionalScriptUrl');
    if (!script) throw AppError.notFound();
    const host = new URL(script).host;
    const answer = req.session?.cookieConsent;
    const now = answer === 'accepted' ? 'nowAccepted' : answer === 'declined' ? 'nowDeclined' : 'nowUnanswered';
    return new PageView('shop/cookie-settings', {
      title: text('consent.cookies.settings'),
      current: text(`consent.cookies.${now}`, { script: host }),
      // The layout shows the notice, with its two forms, whenever this is set.
      cookieNotice: { script: host },
    });
  }

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
