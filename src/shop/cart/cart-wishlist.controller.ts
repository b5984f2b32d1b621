import { Body, Controller, HttpCode, Param, ParseIntPipe, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { AppError } from '../../common/errors/app-error';
import { CartSession } from './cart-session.service';
import { answerCartChange } from './cart-response';
import { CartSummaries } from './cart-summaries.service';
import { WishlistAddDto } from './dto/cart.dto';

/** "Save for later": moves a cart line to the wishlist. A guest's wishlist lives in the session. */
@ApiTags('cart')
@Controller('shop/cart')
export class CartWishlistController {
  constructor(
    private readonly carts: CartService,
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
  ) {}

  @Post('wishlist-add/:id')
  @HttpCode(200)
  async moveToWishlist(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: WishlistAddDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // Guests have exactly one (session) wishlist; named wishlists belong to customer accounts.
    if (body.wishlist !== undefined) throw AppError.notFound('That wishlist does not exist.');
    const cart = await this.session.current(req);
    const line = cart && (await this.carts.lines(cart.id)).find((candidate) => candidate.id === id);
    if (!cart || !line) throw AppError.notFound('That item is not in your cart.');
    await this.carts.remove(cart.id, line.id);
    const wishlist = (req.session.wishlist ??= []);
    const same = wishlist.find(
      (item) =>
        item.productId === line.productId &&
        item.variantId === line.variantId &&
        JSON.stringify(item.configuration) === JSON.stringify(line.configuration),
    );
    if (same) same.qty += line.qty;
    else
      wishlist.push({
        productId: line.productId,
        variantId: line.variantId,
        qty: line.qty,
        configuration: line.configuration,
      });
    await answerCartChange(req, res, 'Moved to your wishlist.', () => this.summaries.summary(cart.id));
  }
}
