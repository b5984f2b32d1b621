import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { backUrl } from '../../../common/back-url';
import { addFlash, wantsHtml } from '../../../common/session-data';
import { t } from '../../../web/i18n/page-language';
import { apiText, flashText, UiMessage } from '../ui-message';
import { WatchdogProductDto } from './watchdog.dto';
import { WatchdogService } from './watchdog.service';

const PAGE = '/shop/account/watchdog';

/** Back-in-stock alerts of the logged-in customer (spec: watchdog). */
@ApiTags('customer')
@AccountRoute()
@Controller('shop')
export class WatchdogController {
  constructor(private readonly watchdog: WatchdogService) {}

  /** `{ success, subscribed, message }`: whether the customer now waits for the product. */
  @Post('watchdog/toggle')
  @HttpCode(200)
  async toggle(@Body() body: WatchdogProductDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { subscribed, productName } = await this.watchdog.toggle(req.customer!.id, body.product);
    const message = {
      key: subscribed ? 'account.watchdog.alertOn' : 'account.watchdog.alertOff',
      params: { name: productName },
    };
    answer(req, res, message, { subscribed });
  }

  @Post('watchdog/remove')
  @HttpCode(200)
  async remove(@Body() body: WatchdogProductDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.watchdog.remove(req.customer!.id, body.product);
    answer(req, res, { key: 'account.watchdog.removed' }, {});
  }

  /** The page, or `{ success, alerts }` for a JSON client. */
  @Get('account/watchdog')
  async page(@Req() req: Request, @Res() res: Response): Promise<void> {
    const alerts = await this.watchdog.alerts(req.customer!.id);
    if (!wantsHtml(req)) {
      res.json({ success: true, alerts });
      return;
    }
    res.render('shop/account/watchdog', { title: t(res, 'account.watchdog.title'), csrf: true, alerts });
  }
}

/** JSON for scripts; a flash and a 303 back to the page the form was on for a browser. */
function answer(req: Request, res: Response, message: UiMessage, extra: Record<string, unknown>): void {
  if (wantsHtml(req)) {
    addFlash(req, 'success', flashText(res, message));
    res.redirect(303, backUrl(req, PAGE));
    return;
  }
  res.json({ success: true, message: apiText(message), ...extra });
}
