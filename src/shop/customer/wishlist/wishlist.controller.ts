import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import Handlebars from 'handlebars';
import { FormAnswer } from '../../../web/answers/answers';
import { t } from '../../../web/i18n/page-language';
import { addToGuestWishlist } from '../../../commerce/customers/guest-wishlist';
import { removeFromGuestWishlist } from './guest-wishlist';
import { WishlistProducts } from './wishlist-products.service';
import { WishlistSharing } from './wishlist-sharing.service';
import { wishlistChanged, WishlistViews } from './wishlist-views.service';
import { WishlistAddDto, WishlistItemDto } from './wishlist.dto';
import { WishlistService } from '../../../commerce/customers/wishlist.service';

const ACCOUNT_LISTS = '/shop/account/wishlists';

/**
 * Saving products for later, for guests (one list in the session, adopted on login) and customers (their
 * named lists), and the public page of a shared list.
 */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@Controller('shop/wishlist')
export class WishlistController {
  constructor(
    private readonly wishlists: WishlistService,
    private readonly products: WishlistProducts,
    private readonly views: WishlistViews,
    private readonly sharing: WishlistSharing,
  ) {}

  @Post('add')
  @HttpCode(200)
  async add(@Body() body: WishlistAddDto, @Req() req: Request): Promise<FormAnswer> {
    const entry = await this.products.entry(body.product, body.qty ?? 1, body.configuration);
    const message = { key: 'account.wishlists.saved', params: { name: entry.name } };
    const customer = await this.views.customer(req);
    if (!customer) {
      // Guests have exactly one (session) list; named lists belong to accounts.
      if (body.wishlist !== undefined) throw AppError.notFound('That wishlist does not exist.');
      addToGuestWishlist(req, entry);
      return wishlistChanged(message, () => this.views.guest(req), '/');
    }
    const wishlistId = await this.wishlists.add(customer.id, [entry], body.wishlist);
    return wishlistChanged(message, () => this.views.one(req, customer.id, wishlistId), ACCOUNT_LISTS);
  }

  @Post('remove-item')
  @HttpCode(200)
  async removeItem(@Body() body: WishlistItemDto, @Req() req: Request): Promise<FormAnswer> {
    const message = { key: 'account.wishlists.itemRemoved' };
    const customer = await this.views.customer(req);
    if (!customer) {
      removeFromGuestWishlist(req, body.id);
      return wishlistChanged(message, () => this.views.guest(req), '/');
    }
    const wishlistId = await this.wishlists.removeItem(customer.id, body.id);
    return wishlistChanged(message, () => this.views.one(req, customer.id, wishlistId), ACCOUNT_LISTS);
  }

  /** Read-only, for whoever has the signed link; a wrong signature looks like a missing list. */
  @Get('shared/:id/:signature')
  async shared(
    @Param('id') id: string,
    @Param('signature') signature: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const wishlistId = /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : 0;
    const shared =
      wishlistId && this.sharing.verify(wishlistId, signature) && (await this.wishlists.shared(wishlistId));
    if (!shared) throw AppError.notFound('This wishlist link is not valid.');
    const [wishlist] = await this.products.present([shared.list], req.session.currency);
    // A list shared with friends is not for search engines.
    res.setHeader('X-Robots-Tag', 'noindex');
    res.render('shop/wishlist/shared', {
      title: t(res, 'account.shared.title', { owner: shared.ownerName }),
      heading: sharedHeading(res, shared.ownerName, wishlist.name),
      wishlist,
    });
  }
}

/**
 * "Grace's wishlist: Gifts" with the names escaped but the translation's own apostrophe kept as typed
 * (translations carry no markup; `{{t}}` would print it as `&#x27;`).
 */
function sharedHeading(res: Response, owner: string, name: string): Handlebars.SafeString {
  const params = { owner: Handlebars.escapeExpression(owner), name: Handlebars.escapeExpression(name) };
  return new Handlebars.SafeString(t(res, 'account.shared.heading', params));
}
