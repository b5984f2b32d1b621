import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { CatalogProduct } from '../../commerce/products/catalog-product';
import { ProductsService } from '../../commerce/products/products.service';
import { StoreService } from '../../commerce/stores/store.service';
import { CartFragmentCache } from './cart-fragment.cache';
import { CartSession } from './cart-session.service';
import { CartSummaries } from './cart-summaries.service';
import { PageView } from '../../web/answers/answers';
import { chooseLanguage } from '../../web/i18n/page-language';
import { CartView, cartView } from './cart-view';
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
  items(@Query() query: FragmentQuery, @Req() req: Request): Promise<PageView> {
    return this.fragment('items', query, req);
  }

  @Get('get-totals')
  @Header('Cache-Control', 'private, no-cache')
  totals(@Query() query: FragmentQuery, @Req() req: Request): Promise<PageView> {
    return this.fragment('totals', query, req);
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
   * A fragment, from what the cache keeps of it unless `force-reload=1` (`X-Cache` says which). The cache variant
   * includes the cart's last change time, so a fragment can never outlive the content it shows.
   */
  private async fragment(kind: Fragment, query: FragmentQuery, req: Request): Promise<PageView> {
    const store = await this.stores.resolve(query.store);
    const currency = await this.session.currency(req);
    const cart = await this.session.current(req);
    // The fragment speaks the language a page of that store view would.
    const lang = chooseLanguage(req.session.language, store.language);
    const variant = `${kind}:${store.handle}:${lang}:${cart?.currency ?? currency.code}:${cart?.lastActivityAt ?? 0}`;
    const page = (view: CartView, cache: 'hit' | 'miss') =>
      new PageView(`shop/cart/${kind}`, { layout: false, lang, cart: view }, { headers: { 'X-Cache': cache } });
    if (cart && query['force-reload'] !== '1') {
      const cached = await this.cache.get(cart.id, variant);
      if (cached !== undefined) return page(cached, 'hit');
    }
    const view = cartView(await this.summaries.priced(cart?.id, currency.code), lang);
    if (cart) await this.cache.set(cart.id, variant, view);
    return page(view, 'miss');
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
