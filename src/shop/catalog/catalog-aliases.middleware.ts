import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { SettingsService } from '../../config/settings.service';

export const LISTING_PATH = '/shop/catalog/products';

/**
 * Serves the listing at the language aliases of the `catalogAliases` setting (`/produkty`, …) by
 * rewriting the URL before routing. The setting is read on every request, so a change made in the CP
 * or with `settings:set` needs no restart; any other path goes on to its own route or the 404.
 */
@Injectable()
export class CatalogAliasesMiddleware implements NestMiddleware {
  constructor(private readonly settings: SettingsService) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    if (isAlias(req.path, this.settings.get('catalogAliases'))) {
      const query = req.url.indexOf('?');
      req.url = query === -1 ? LISTING_PATH : `${LISTING_PATH}${req.url.slice(query)}`;
    }
    next();
  }
}

/** Compared like Express routes: case-insensitive, a trailing slash ignored. */
function isAlias(path: string, aliases: unknown): boolean {
  if (!Array.isArray(aliases)) return false;
  const wanted = normalize(path);
  return aliases.some((alias) => typeof alias === 'string' && normalize(alias) === wanted);
}

function normalize(path: string): string {
  const trimmed = path.trim().toLowerCase().replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
