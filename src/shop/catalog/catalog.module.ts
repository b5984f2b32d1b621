import { Module } from '@nestjs/common';
import { CatalogService } from './catalog.service';
import { HomeController } from './home.controller';

/** Product listing, search and product pages. */
@Module({ controllers: [HomeController], providers: [CatalogService] })
export class CatalogModule {}
