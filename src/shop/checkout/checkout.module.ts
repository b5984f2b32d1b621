import { Module } from '@nestjs/common';

/** Storefront checkout: its routes live under /shop/checkout/. */
@Module({})
export class CheckoutModule {}
