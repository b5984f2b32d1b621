import { Module } from '@nestjs/common';

/** Storefront marketing: its routes live under /shop/marketing/. */
@Module({})
export class MarketingModule {}
