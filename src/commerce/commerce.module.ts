import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { DomainEvents } from '../common/domain-events';
import { CartPricingService } from './carts/cart-pricing.service';
import { CartService } from './carts/cart.service';
import { SessionCarts } from './carts/session-carts.service';
import { ShopCategories } from './categories/shop-categories.service';
import { CartRefill } from './checkout/cart-refill.service';
import { CheckoutChoices } from './checkout/checkout-choices.service';
import { CheckoutRules } from './checkout/checkout-rules';
import { MarketingConsents } from './marketing/marketing-consents.service';
import { CorePlugin } from './core.plugin';
import { PlaceOrderService } from './checkout/place-order.service';
import { QuoteService } from './checkout/quote.service';
import { ContentPages } from './content/content-pages.service';
import { CouponService } from './coupons/coupon.service';
import { AddressBookService } from './customers/address-book.service';
import { SessionCustomers } from './customers/session-customers.service';
import { WishlistService } from './wishlists/wishlist.service';
import { DeliverySlotsService } from './delivery/delivery-slots.service';
import { PLUGINS_AFTER_LOAD } from './events';
import { GiftCardPaymentGateway } from './gift-cards/gift-card-payment.gateway';
import { GiftCardLedger } from './gift-cards/gift-card-ledger.service';
import { GiftCardRedemption } from './gift-cards/gift-card-redemption.service';
import { SalesDocumentMail } from './invoices/sales-document-mail';
import { SalesDocumentPdf } from './invoices/sales-document-pdf';
import { SalesDocuments } from './invoices/sales-documents.service';
import { OrderCancellation } from './orders/order-cancellation.service';
import { OrderMails } from './order-mails/order-mails.service';
import { OrderCanceledMail } from './orders/order-canceled.mail';
import { OrderEdits } from './orders/order-edits.service';
import { OrderConfirmationMail } from './orders/order-confirmation.mail';
import { OrderEditedMail } from './orders/order-edited.mail';
import { OrderPageSections } from './orders/order-page-sections';
import { OrderStatusService } from './orders/order-status.service';
import { OrdersService } from './orders/orders.service';
import { CorePaymentGateway } from './payments/core-payment.gateway';
import { PaymentDeadlines } from './payments/payment-deadlines.service';
import { PaymentMethodRegistry } from './payments/payment-method.registry';
import { PaymentStatusPoller } from './payments/payment-status-poller';
import { PaymentService } from './payments/payment.service';
import { RefundReconciliation } from './refunds/refund-reconciliation.service';
import { RefundService } from './refunds/refund.service';
import { RefundedMail } from './refunds/refunded.mail';
import { PriceHistory } from './products/price-history.service';
import { ImportImageSources } from './products/import-image-sources';
import { ProductImageFiles } from './products/product-image-files';
import { ProductImages } from './products/product-images.service';
import { CatalogTransfer } from './products/catalog-transfer.service';
import { ProductImportService } from './products/product-import.service';
import { ProductAttributes } from './attributes/product-attributes.service';
import { ProductsService } from './products/products.service';
import { SellableProducts } from './products/sellable-products';
import { StockService } from './products/stock.service';
import { CoreShippingProvider } from './shipping/core-shipping.provider';
import { DeliveredMail } from './shipments/delivered.mail';
import { ShipmentCarrierRegistry } from './shipments/shipment-carrier.registry';
import { ShipmentTracking } from './shipments/shipment-tracking.service';
import { ShipmentsService } from './shipments/shipments.service';
import { ShippedMail } from './shipments/shipped.mail';
import { ShippingMethodRegistry } from './shipping/shipping-method.registry';
import { CurrencyService } from './stores/currency.service';
import { DefaultStoreService } from './stores/default-store.service';
import { SellerContact } from './stores/seller-contact';
import { StoreService } from './stores/store.service';
import { StoreDetailsService } from './stores/store-details.service';
import { DemoRemoval } from './stores/demo-removal.service';
import { OssReport } from './tax/oss-report.service';
import { VatRates } from './tax/vat-rates.service';
import { VatValidationService } from './tax/vat-validation.service';
import { ViesClient } from './tax/vies.client';

const COMMERCE_SERVICES = [
  OrderEdits,
  PaymentMethodRegistry,
  ShippingMethodRegistry,
  OrderStatusService,
  OrderPageSections,
  OrdersService,
  PriceHistory,
  ImportImageSources,
  ProductImageFiles,
  ProductImages,
  ProductImportService,
  ProductAttributes,
  CatalogTransfer,
  ProductsService,
  SellableProducts,
  StockService,
  CurrencyService,
  StoreService,
  DefaultStoreService,
  StoreDetailsService,
  DemoRemoval,
  CouponService,
  GiftCardLedger,
  GiftCardRedemption,
  CartService,
  SessionCarts,
  CartPricingService,
  DeliverySlotsService,
  QuoteService,
  CheckoutRules,
  CheckoutChoices,
  MarketingConsents,
  CartRefill,
  PlaceOrderService,
  PaymentService,
  PaymentStatusPoller,
  PaymentDeadlines,
  RefundService,
  RefundReconciliation,
  OrderMails,
  OrderConfirmationMail,
  ShipmentCarrierRegistry,
  ShipmentsService,
  ShipmentTracking,
  ShippedMail,
  SalesDocuments,
  SalesDocumentPdf,
  SalesDocumentMail,
  ViesClient,
  VatValidationService,
  VatRates,
  OssReport,
  SessionCustomers,
  WishlistService,
  AddressBookService,
  ContentPages,
  SellerContact,
  ShopCategories,
];

/**
 * The shared domain: products, carts, orders, payments and shipping, and the registries plugins fill.
 * Plugins import from here; nothing here imports a plugin.
 */
@Global()
@Module({
  providers: [
    ...COMMERCE_SERVICES,
    CoreShippingProvider,
    CorePaymentGateway,
    GiftCardPaymentGateway,
    CorePlugin,
    OrderCancellation,
    OrderCanceledMail,
    OrderEditedMail,
    DeliveredMail,
    RefundedMail,
  ],
  exports: COMMERCE_SERVICES,
})
export class CommerceModule implements OnApplicationBootstrap {
  constructor(private readonly events: DomainEvents) {}

  /** Every module's onModuleInit has run by now, so every plugin is listening (docs/architecture.md). */
  onApplicationBootstrap(): void {
    this.events.emit(PLUGINS_AFTER_LOAD);
  }
}
