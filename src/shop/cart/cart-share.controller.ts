import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { AppError } from '../../common/errors/app-error';
import { SessionAndAddressThrottlerGuard } from '../../common/throttling/session-and-address';
import { FormAnswer, Redirect } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CartSession } from './cart-session.service';
import { CartShareLinks } from './cart-share-links';
import { CART_PAGE } from './cart-summaries.service';
import { ShareEmailsDto } from './dto/cart.dto';
import { cartErrors } from '../../commerce/carts/carts-errors';

/** Share links asked for per minute, per session and per address: the same cart keeps its one token anyway. */
const SHARE_CREATE_LIMIT = 10;
/** Share e-mail posts per 15 minutes, per session and per address (each mails up to ten addresses). */
const SHARE_MAIL_POST_LIMIT = 5;

/** Shareable cart links: a 32-hex token that lets anyone copy the cart's lines into their own cart. */
@ApiTags('cart')
@Controller('shop/cart')
export class CartShareController {
  constructor(
    private readonly carts: CartService,
    private readonly session: CartSession,
    private readonly links: CartShareLinks,
  ) {}

  /** JSON `{ success, token, url }`; a form post goes back to the cart page, which shows the link. */
  @Post('share-create')
  @HttpCode(200)
  @UseGuards(SessionAndAddressThrottlerGuard)
  @Throttle({ default: { limit: SHARE_CREATE_LIMIT, ttl: 60_000 } })
  async create(@Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    const token = await this.tokenOfCurrentCart(req);
    return new FormAnswer(text('cart.messages.shareReady'), { back: CART_PAGE }, () => ({
      success: true,
      token,
      url: this.links.url(token),
    }));
  }

  /**
   * Mails the link to up to 10 recipients, through the job queue: `{ success, sent }`. The mail carries no text of
   * the sender's; 429 with `Retry-After` past the post limit or the hourly recipient allowance (ShareMails).
   */
  @Post('share-send-emails')
  @HttpCode(200)
  @UseGuards(SessionAndAddressThrottlerGuard)
  @Throttle({ default: { limit: SHARE_MAIL_POST_LIMIT, ttl: 15 * 60_000 } })
  async sendEmails(@Body() body: ShareEmailsDto, @Req() req: Request): Promise<{ success: true; sent: number }> {
    const token = await this.tokenOfCurrentCart(req);
    return { success: true, sent: await this.links.send(req, token, body.recipients) };
  }

  /** Copies the shared lines into the visitor's cart and shows the cart page. */
  @Get('share/:token')
  async open(@Param('token') token: string, @Req() req: Request, @PageText() text: PageTextFn): Promise<Redirect> {
    const shared = /^[0-9a-f]{32}$/.test(token) ? await this.carts.findByShareToken(token) : null;
    if (!shared) throw AppError.notFound('This shared cart link is not valid.');
    const cart = await this.session.currentOrCreate(req);
    const lines = cart.id === shared.id ? [] : await this.carts.lines(shared.id);
    const copied = await this.carts.copyLines(cart.id, lines);
    const skipped = lines.length - copied;
    const told = skipped
      ? ({ type: 'info', message: text('cart.messages.sharedPartly', { count: copied, skipped }) } as const)
      : ({ type: 'success', message: text('cart.messages.sharedAdded', { count: copied }) } as const);
    return new Redirect(CART_PAGE, 302, [told]);
  }

  private async tokenOfCurrentCart(req: Request): Promise<string> {
    const cart = await this.session.current(req);
    const lines = cart ? await this.carts.lines(cart.id) : [];
    if (!cart || lines.length === 0) throw cartErrors.cart_empty();
    return this.carts.shareToken(cart.id);
  }
}
