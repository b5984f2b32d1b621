import { Module } from '@nestjs/common';
import { HomeController } from './home.controller';

/** Product listing, search and product pages. */
@Module({ controllers: [HomeController] })
export class CatalogModule {}
