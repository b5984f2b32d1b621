import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ShopCategories } from '../commerce/categories/shop-categories.service';
import { CurrencyService } from '../commerce/stores/currency.service';
import { StoreService } from '../commerce/stores/store.service';
import { SettingsService } from '../config/settings.service';
import { cookieNoticeLocals } from './cookie-notice';
import { chooseLanguage } from './i18n/page-language';
import { translations } from './i18n/translations';
import { requestedLanguage } from './page-links';

/**
 * What the shop layout needs on every page, in `res.locals` (which every render sees): `lang` (the page
 * language: `?lang=`, else the session's choice, else the store's) and `storeLanguage` (the store's, as shown),
 * the store's `shopName` and `shopLogo` (header, titles, footer) with `pricesIncludeTax`, `languages` and
 * `currencies` (for the switches), `currency` (the shopper's currency) and
 * the flags `accountsEnabled` and `ajaxCart` (add to cart answers JSON for the popup), the header's category menu
 * (`categoryMenu`; category and product pages pass one marking the shopper's place), and the cookie notice and
 * optional script (cookie-notice.ts). All of
 * it comes from in-memory caches; the services are looked up on first use (configureApp runs before the
 * modules initialise).
 */
export function shopPageLocals(app: INestApplication) {
  let services:
    | { stores: StoreService; currencies: CurrencyService; settings: SettingsService; categories: ShopCategories }
    | undefined;
  const shipped = translations();
  const languages = shipped.languages.map((code) => ({ code, name: shipped.t(code, 'layout.languageName') }));
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.path.startsWith('/public/') || req.path === '/health') return next();
    services ??= {
      stores: app.get(StoreService),
      currencies: app.get(CurrencyService),
      settings: app.get(SettingsService),
      categories: app.get(ShopCategories),
    };
    const { stores, currencies, settings, categories } = services;
    Promise.all([
      stores.default(),
      currencies.chosenOrBase(req.session?.currency),
      currencies.all(),
      categories.menu(),
    ]).then(([store, currency, all, categoryMenu]) => {
      // `?lang=` (page-links.ts) shows this page in that language without remembering it: what search engines
      // follow from the hreflang links, and a guest page stays the same for everyone who asks for that URL.
      res.locals.lang = chooseLanguage(requestedLanguage(req) ?? req.session?.language, store.language);
      res.locals.storeLanguage = chooseLanguage(undefined, store.language);
      res.locals.shopName = store.name;
      res.locals.shopLogo = settings.get('storeLogoPath');
      res.locals.pricesIncludeTax = settings.isOn('salesPricesIncludeTax');
      res.locals.languages = languages;
      res.locals.currency = currency;
      res.locals.currencies = all;
      res.locals.categoryMenu = categoryMenu;
      res.locals.accountsEnabled = settings.isOn('customerAccountsEnabled');
      res.locals.ajaxCart = settings.isOn('salesCheckoutEnableAjax');
      Object.assign(res.locals, cookieNoticeLocals(settings, req));
      next();
    }, next);
  };
}
