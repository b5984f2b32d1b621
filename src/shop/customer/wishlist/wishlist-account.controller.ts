import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { wantsHtml } from '../../../common/session-data';
import { PageView } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { WishlistToCart } from '../../../commerce/wishlists/wishlist-to-cart.service';
import { wishlistChanged, WishlistViews } from './wishlist-views.service';
import { WishlistClearDto, WishlistItemDto, WishlistUpdateDto } from './wishlist.dto';
import { WishlistService } from '../../../commerce/wishlists/wishlist.service';

const PAGE = '/shop/account/wishlists';

/** The account's wishlists page and what its forms post. */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account')
export class WishlistAccountController {
  constructor(
    private readonly wishlists: WishlistService,
    private readonly views: WishlistViews,
    private readonly toCart: WishlistToCart,
  ) {}

  /** The page, or `{ success, wishlists }` for a JSON client. */
  @Get('wishlists')
  async page(@Req() req: Request, @PageText() text: PageTextFn) {
    const wishlists = await this.views.all(req, req.customer!.id);
    if (!wantsHtml(req)) return { success: true, wishlists };
    return new PageView('shop/account/wishlists', { title: text('account.wishlists.title'), csrf: true, wishlists });
  }

  /** Renames list `id`, or creates a list when no `id` is given. */
  @Post('wishlist-update')
  @HttpCode(200)
  async update(@Body() body: WishlistUpdateDto, @Req() req: Request) {
    const customerId = req.customer!.id;
    const wishlistId = await this.wishlists.save(customerId, body.name, body.id);
    const message = {
      key: body.id ? 'account.wishlists.renamed' : 'account.wishlists.created',
      params: { name: body.name },
    };
    return wishlistChanged(message, () => this.views.one(req, customerId, wishlistId), PAGE);
  }

  @Post('wishlist-remove-item')
  @HttpCode(200)
  async removeItem(@Body() body: WishlistItemDto, @Req() req: Request) {
    const customerId = req.customer!.id;
    const wishlistId = await this.wishlists.removeItem(customerId, body.id);
    return wishlistChanged(
      { key: 'account.wishlists.itemRemoved' },
      () => this.views.one(req, customerId, wishlistId),
      PAGE,
    );
  }

  /** Empties list `wishlist`, or the default list. */
  @Post('wishlist-clear')
  @HttpCode(200)
  async clear(@Body() body: WishlistClearDto, @Req() req: Request) {
    const customerId = req.customer!.id;
    const wishlistId = await this.wishlists.clear(customerId, body.wishlist);
    return wishlistChanged(
      { key: 'account.wishlists.cleared' },
      () => this.views.one(req, customerId, wishlistId),
      PAGE,
    );
  }

  /** Moves the item to the session's cart; a 409 (stock) or 400 (options to choose) leaves it on the list. */
  @Post('wishlist-cart-item')
  @HttpCode(200)
  async moveToCart(@Body() body: WishlistItemDto, @Req() req: Request) {
    const customerId = req.customer!.id;
    const moved = await this.toCart.move(customerId, body.id, req.session);
    req.session.cartId = moved.cartId;
    return wishlistChanged(
      { key: 'account.wishlists.movedToCart', params: { name: moved.productName } },
      () => this.views.one(req, customerId, moved.wishlistId),
      PAGE,
    );
  }
}
