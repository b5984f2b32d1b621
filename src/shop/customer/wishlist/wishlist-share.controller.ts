import { Body, Controller, Get, HttpCode, HttpStatus, Param, ParseIntPipe, Post, Req, UseGuards } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { wantsHtml } from '../../../common/session-data';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { changeDone } from '../translated-answers';
import { CustomerThrottlerGuard } from '../auth/customer-throttler.guard';
import { WishlistSharing } from './wishlist-sharing.service';
import { WishlistViews } from './wishlist-views.service';
import { MAX_SHARE_RECIPIENTS, WishlistShareDto } from './wishlist.dto';
import { wishlistErrors } from '../../../commerce/wishlists/wishlists-errors';

/** Share posts per customer per window: each one mails up to ten addresses of the customer's choosing. */
const SHARE_POST_LIMIT = 5;
const SHARE_WINDOW_MS = 15 * 60 * 1000;

/** Sharing a wishlist: the page with its link, and the link sent by e-mail. */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account')
export class WishlistShareController {
  constructor(
    private readonly views: WishlistViews,
    private readonly sharing: WishlistSharing,
  ) {}

  /** The page, or `{ success, url, wishlist }` for a JSON client. */
  @Get('wishlist-share/:id')
  async page(
    @Param('id', new ParseIntPipe({ errorHttpStatusCode: HttpStatus.NOT_FOUND })) id: number,
    @Req() req: Request,
    @PageText() text: PageTextFn,
  ) {
    const wishlist = await this.views.one(req, req.customer!.id, id);
    const url = this.sharing.url(id);
    if (!wantsHtml(req)) return { success: true, url, wishlist };
    return new PageView('shop/account/wishlist-share', {
      title: text('account.share.title', { name: wishlist.name }),
      csrf: true,
      wishlist,
      url,
      maxRecipients: MAX_SHARE_RECIPIENTS,
    });
  }

  /** Mails the link to 1–10 addresses through the job queue: `{ success, sent }`. The mail holds no text of theirs. */
  @Post('wishlist-share-post')
  @HttpCode(200)
  @UseGuards(CustomerThrottlerGuard)
  @Throttle({ default: { limit: SHARE_POST_LIMIT, ttl: SHARE_WINDOW_MS } })
  async send(@Body() body: WishlistShareDto, @Req() req: Request): Promise<FormAnswer> {
    const customer = req.customer!;
    const wishlist = await this.views.one(req, customer.id, body.id);
    if (wishlist.count === 0) throw wishlistErrors.wishlist_empty();
    const sent = await this.sharing.send(req, body.id, body.emails);
    const message = { key: 'account.share.sent', params: { count: sent } };
    return changeDone(message, { back: `/shop/account/wishlist-share/${body.id}` }, { sent });
  }
}
