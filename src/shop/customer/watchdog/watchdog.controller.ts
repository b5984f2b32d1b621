import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { wantsHtml } from '../../../common/session-data';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { changeDone } from '../translated-answers';
import { WatchdogProductDto } from './watchdog.dto';
import { WatchdogService } from '../../../commerce/marketing/watchdog.service';

const PAGE = '/shop/account/watchdog';

/** Back-in-stock alerts (watchdog) of the logged-in customer. */
@ApiTags('customer')
@AccountRoute()
@Controller('shop')
export class WatchdogController {
  constructor(private readonly watchdog: WatchdogService) {}

  /** `{ success, subscribed, message }`: whether the customer now waits for the product. */
  @Post('watchdog/toggle')
  @HttpCode(200)
  async toggle(@Body() body: WatchdogProductDto, @Req() req: Request): Promise<FormAnswer> {
    const { subscribed, productName } = await this.watchdog.toggle(req.customer!.id, body.product);
    const message = {
      key: subscribed ? 'account.watchdog.alertOn' : 'account.watchdog.alertOff',
      params: { name: productName },
    };
    return changeDone(message, { back: PAGE }, { subscribed });
  }

  @Post('watchdog/remove')
  @HttpCode(200)
  async remove(@Body() body: WatchdogProductDto, @Req() req: Request): Promise<FormAnswer> {
    await this.watchdog.remove(req.customer!.id, body.product);
    return changeDone({ key: 'account.watchdog.removed' }, { back: PAGE });
  }

  /** The page, or `{ success, alerts }` for a JSON client. */
  @Get('account/watchdog')
  async page(@Req() req: Request, @PageText() text: PageTextFn) {
    const alerts = await this.watchdog.alerts(req.customer!.id);
    if (!wantsHtml(req)) return { success: true, alerts };
    return new PageView('shop/account/watchdog', { title: text('account.watchdog.title'), csrf: true, alerts });
  }
}
