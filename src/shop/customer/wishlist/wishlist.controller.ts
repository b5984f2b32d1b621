import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import Handlebars from 'handlebars';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { addToGuestWishlist, removeFromGuestWishlist } from '../../../commerce/wishlists/guest-wishlist';
import { WishlistProducts } from '../../../commerce/wishlists/wishlist-products.service';
import { WishlistSharing } from './wishlist-sharing.service';
import { wishlistChanged, WishlistViews } from './wishlist-views.service';
import { WishlistAddDto, WishlistItemDto } from './wishlist.dto';
import { WishlistService } from '../../../commerce/wishlists/wishlist.service';

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
      addToGuestWishlist(req.session, entry);
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
      removeFromGuestWishlist(req.session, body.id);
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
    @PageText() text: PageTextFn,
  ): Promise<PageView> {
    const wishlistId = /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : 0;
    const shared =
      wishlistId && this.sharing.verify(wishlistId, signature) && (await this.wishlists.shared(wishlistId));
    if (!shared) throw AppError.notFound('This wishlist link is not valid.');
    const [wishlist] = await this.products.present([shared.list], req.session.currency);
    return new PageView(
      'shop/wishlist/shared',
      {
        title: text('account.shared.title', { owner: shared.ownerName }),
        heading: sharedHeading(text, shared.ownerName, wishlist.name),
        wishlist,
      },
      // A list shared with friends is not for search engines.
      { headers: { 'X-Robots-Tag': 'noindex' } },
    );
  }
}

/**
 * "Grace's wishlist: Gifts" with the names escaped but the translation's own apostrophe kept as typed
 * (translations carry no markup; `{{t}}` would print it as `&#x27;`).
 */
function sharedHeading(text: PageTextFn, owner: string, name: string): Handlebars.SafeString {
  const params = { owner: Handlebars.escapeExpression(owner), name: Handlebars.escapeExpression(name) };
  return new Handlebars.SafeString(text('account.shared.heading', params));
}
