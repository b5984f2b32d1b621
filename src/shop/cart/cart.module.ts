import { Module } from '@nestjs/common';

/** Storefront cart: its routes live under /shop/cart/. */
@Module({})
export class CartModule {}
