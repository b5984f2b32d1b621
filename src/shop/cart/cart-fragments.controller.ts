import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { CatalogProduct } from '../../commerce/products/catalog-product';
import { ProductsService } from '../../commerce/products/products.service';
import { StoreService } from '../../commerce/stores/store.service';
import { CartFragmentCache } from './cart-fragment.cache';
import { CartSession } from './cart-session.service';
import { CartSummaries } from './cart-summaries.service';
import { chooseLanguage } from '../../web/i18n/page-language';
import { cartView } from './cart-view';
import { FragmentQuery, RelatedItemsQuery } from './dto/cart.dto';

type Fragment = 'items' | 'totals';

/** Read-only cart pieces that pages load with scripts: HTML fragments and product suggestions. */
@ApiTags('cart')
@Controller('shop/cart')
export class CartFragmentsController {
  constructor(
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
    private readonly carts: CartService,
    private readonly products: ProductsService,
    private readonly stores: StoreService,
    private readonly cache: CartFragmentCache,
  ) {}

  @Get('get-items')
  @Header('Cache-Control', 'private, no-cache')
  items(@Query() query: FragmentQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.fragment('items', query, req, res);
  }

  @Get('get-totals')
  @Header('Cache-Control', 'private, no-cache')
  totals(@Query() query: FragmentQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.fragment('totals', query, req, res);
  }

  @Get('get-cross-items')
  async crossItems(@Req() req: Request): Promise<{ success: true; products: CatalogProduct[] }> {
    return { success: true, products: await this.suggestions(req, 'cross_sell', { limit: 8 }) };
  }

  @Get('get-related-items')
  async relatedItems(
    @Query() query: RelatedItemsQuery,
    @Req() req: Request,
  ): Promise<{ success: true; products: CatalogProduct[] }> {
    const products = await this.suggestions(req, 'related', {
      name: query.name,
      excludeIds: query.exclude ? [query.exclude] : [],
      limit: query.limit ?? 4,
    });
    return { success: true, products };
  }

  /**
   * Renders a fragment, from the cache unless `force-reload=1`. The cache variant includes the cart's
   * last change time, so a fragment can never outlive the content it shows.
   */
  private async fragment(kind: Fragment, query: FragmentQuery, req: Request, res: Response): Promise<void> {
    const store = await this.stores.resolve(query.store);
    const currency = await this.session.currency(req);
    const cart = await this.session.current(req);
    // The fragment speaks the language a page of that store view would.
    const lang = chooseLanguage(req.session.language, store.language);
    const variant = `${kind}:${store.handle}:${lang}:${cart?.currency ?? currency.code}:${cart?.lastActivityAt ?? 0}`;
    if (cart && query['force-reload'] !== '1') {
      const cached = await this.cache.get(cart.id, variant);
      if (cached !== undefined) {
        res.type('html').set('X-Cache', 'hit').send(cached);
        return;
      }
    }
    const priced = await this.summaries.priced(cart?.id, currency.code);
    const html = await new Promise<string>((resolve, reject) =>
      res.render(`shop/cart/${kind}`, { layout: false, lang, cart: cartView(priced, lang) }, (error, rendered) =>
        error ? reject(error) : resolve(rendered),
      ),
    );
    if (cart) await this.cache.set(cart.id, variant, html);
    res.type('html').set('X-Cache', 'miss').send(html);
  }

  private async suggestions(
    req: Request,
    kind: 'related' | 'cross_sell',
    query: { name?: string; excludeIds?: number[]; limit: number },
  ): Promise<CatalogProduct[]> {
    const cart = await this.session.current(req);
    const productIds = cart ? [...new Set((await this.carts.lines(cart.id)).map((line) => line.productId))] : [];
    const products = await this.products.related(productIds, kind, query);
    return this.products.present(products, await this.session.currency(req));
  }
}
