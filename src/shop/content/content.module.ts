import { Module } from '@nestjs/common';
import { ContentPageController } from './content-page.controller';

/** The shop's content pages (docs/shop.md, _Content pages_). */
@Module({ controllers: [ContentPageController] })
export class ContentModule {}
