import { Module } from '@nestjs/common';
import { VatController } from './vat.controller';

/** Storefront checkout: its routes live under /shop/checkout/. */
@Module({
  controllers: [VatController],
})
export class CheckoutModule {}
