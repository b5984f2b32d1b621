import { Body, Controller, HttpCode, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { addToGuestWishlist } from '../../commerce/wishlists/guest-wishlist';
import { SessionCustomers } from '../../commerce/customers/session-customers.service';
import { WishlistService } from '../../commerce/wishlists/wishlist.service';
import { RequiresFeature } from '../../common/decorators/requires-feature.decorator';
import { AppError } from '../../common/errors/app-error';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CartSession } from './cart-session.service';
import { cartChanged, CartSummaries } from './cart-summaries.service';
import { WishlistAddDto } from './dto/cart.dto';

/**
 * "Save for later": moves a cart line to a wishlist: a customer's default (or named) list, or a guest's
 * session list, which joins the customer's default list at login. Without customer accounts no wishlist can be
 * seen, so the action is not offered and the line stays in the cart.
 */
@ApiTags('cart')
@Controller('shop/cart')
export class CartWishlistController {
  constructor(
    private readonly carts: CartService,
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
    private readonly customers: SessionCustomers,
    private readonly wishlists: WishlistService,
  ) {}

  @Post('wishlist-add/:id')
  @RequiresFeature('customerAccountsEnabled')
  @HttpCode(200)
  async moveToWishlist(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: WishlistAddDto,
    @Req() req: Request,
    @PageText() text: PageTextFn,
  ) {
    const customer = await this.customers.current(req.session);
    // Guests have exactly one (session) wishlist; named wishlists belong to customer accounts.
    if (!customer && body.wishlist !== undefined) throw AppError.notFound('That wishlist does not exist.');
    const cart = await this.session.current(req);
    const line = cart && (await this.carts.lines(cart.id)).find((candidate) => candidate.id === id);
    if (!cart || !line) throw AppError.notFound('That item is not in your cart.');
    const entry = {
      productId: line.productId,
      variantId: line.variantId ?? 0,
      qty: line.qty,
      configuration: line.configuration,
    };
    if (customer) await this.wishlists.add(customer.id, [entry], body.wishlist);
    else addToGuestWishlist(req.session, entry);
    await this.carts.remove(cart.id, line.id);
    return cartChanged(text('cart.messages.movedToWishlist'), () => this.summaries.summary(cart.id));
  }
}
