import { AbandonedCarts1795460256959 } from './1795460256959-abandoned-carts';
import { Checkout1795431798886 } from './1795431798886-checkout';
import { Initial1763800000000 } from './1763800000000-initial';
import { Coupons1795335171932 } from './1795335171932-coupons';
import { CarrierAShipments1795456796992 } from './1795456796992-carrier-a-shipments';
import { CarrierAAutomation1795459235040 } from './1795459235040-carrier-a-automation';
import { CatalogListingIndexes1795461698667 } from './1795461698667-catalog-listing-indexes';
import { CpUserAuthVersion1795735894868 } from './1795735894868-cp-user-auth-version';
import { Customers1795453312135 } from './1795453312135-customers';
import { EmailVerification1795729603598 } from './1795729603598-email-verification';
import { Flows1795460311935 } from './1795460311935-flows';
import { GiftCards1795461178002 } from './1795461178002-gift-cards';
import { Licenses1795459391865 } from './1795459391865-licenses';
import { ShippingMethodWindow1795747656560 } from './1795747656560-shipping-method-window';
import { PaymentRefundDue1795753670809 } from './1795753670809-payment-refund-due';
import { CartAdds1795775885011 } from './1795775885011-cart-adds';
import { Refunds1795776662856 } from './1795776662856-refunds';
import { Shipments1795777899147 } from './1795777899147-shipments';
import { OrderHistoryCustomerVisible1795778609404 } from './1795778609404-order-history-customer-visible';
import { Returns1795778895019 } from './1795778895019-returns';
import { SalesDocuments1795779408615 } from './1795779408615-sales-documents';
import { LegalPages1795786580244 } from './1795786580244-legal-pages';
import { MarketingConsents1795786594344 } from './1795786594344-marketing-consents';
import { VatByDestination1795786694998 } from './1795786694998-vat-by-destination';
import { RefundChecks1795786705886 } from './1795786705886-refund-checks';
import { PriceHistory1795787259002 } from './1795787259002-price-history';
import { UnitPricesProductSafety1795790774793 } from './1795790774793-unit-prices-product-safety';
import { OrderVatConsultation1795754295107 } from './1795754295107-order-vat-consultation';
import { ProductSearch1795335200000 } from './1795335200000-product-search';
import { Withdrawals1795786795231 } from './1795786795231-withdrawals';
import { WithdrawalDeadlineAndTermsLanguage1795793705640 } from './1795793705640-withdrawal-deadline-and-terms-language';
import { AuditLog1795797950571 } from './1795797950571-audit-log';
import { ProductAdminFields1795798112075 } from './1795798112075-product-admin-fields';
import { CustomerBlocked1795798126300 } from './1795798126300-customer-blocked';
import { ProductImages1795798592038 } from './1795798592038-product-images';
import { CpStaffInvitations1795798126301 } from './1795798126301-cp-staff-invitations';
import { CarrierAParcelClaims1795802729614 } from './1795802729614-carrier-a-parcel-claims';
import { CatalogBrowsing1795809844222 } from './1795809844222-catalog-browsing';
import { CatalogListingPaidPrice1795815000000 } from './1795815000000-catalog-listing-paid-price';

/** Migrations in order; run at start-up and by `npm run cli -- migrations:run`. */
export const MIGRATIONS = [
  Initial1763800000000,
  Coupons1795335171932,
  ProductSearch1795335200000,
  Checkout1795431798886,
  Customers1795453312135,
  CarrierAShipments1795456796992,
  CarrierAAutomation1795459235040,
  Licenses1795459391865,
  AbandonedCarts1795460256959,
  Flows1795460311935,
  GiftCards1795461178002,
  CatalogListingIndexes1795461698667,
  EmailVerification1795729603598,
  CpUserAuthVersion1795735894868,
  ShippingMethodWindow1795747656560,
  PaymentRefundDue1795753670809,
  OrderVatConsultation1795754295107,
  CartAdds1795775885011,
  Refunds1795776662856,
  Shipments1795777899147,
  OrderHistoryCustomerVisible1795778609404,
  Returns1795778895019,
  SalesDocuments1795779408615,
  LegalPages1795786580244,
  MarketingConsents1795786594344,
  VatByDestination1795786694998,
  RefundChecks1795786705886,
  Withdrawals1795786795231,
  PriceHistory1795787259002,
  UnitPricesProductSafety1795790774793,
  WithdrawalDeadlineAndTermsLanguage1795793705640,
  AuditLog1795797950571,
  ProductAdminFields1795798112075,
  CustomerBlocked1795798126300,
  CpStaffInvitations1795798126301,
  ProductImages1795798592038,
  CarrierAParcelClaims1795802729614,
  CatalogBrowsing1795809844222,
  CatalogListingPaidPrice1795815000000,
];
