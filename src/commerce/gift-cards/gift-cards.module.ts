import { Module } from '@nestjs/common';
import { GiftCardDesigns } from './gift-card-designs.service';
import { GiftCardIssuer } from './gift-card-issuer.service';
import { GiftCardOrderIssuance } from './gift-card-order-issuance.service';
import { GiftCardVoucherPdf } from './gift-card-voucher.pdf';
import { GiftCardVouchers } from './gift-card-vouchers.service';

const EXPORTED = [GiftCardIssuer, GiftCardDesigns, GiftCardVouchers];

/**
 * Gift cards (docs/architecture.md, `salesGiftCardsEnabled`): designs, issuing cards (bought, or by staff), and the
 * vouchers. Paying with them is commerce's own (GiftCardRedemption, the gift-card payment method), since
 * pricing and place-order need it. Imported by the storefront, the CP and the CLI.
 */
@Module({
  providers: [...EXPORTED, GiftCardOrderIssuance, GiftCardVoucherPdf],
  exports: EXPORTED,
})
export class GiftCardsModule {}
