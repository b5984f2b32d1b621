import { Cart } from '../commerce/carts/cart.entity';
import { CartAdd } from '../commerce/carts/cart-add.entity';
import { CartLine } from '../commerce/carts/cart-line.entity';
import { Shipment } from '../commerce/shipments/shipment.entity';
import { DeliverySlotBooking } from '../commerce/delivery/delivery-slot-booking.entity';
import { DeliverySlot } from '../commerce/delivery/delivery-slot.entity';
import { CouponUsage } from '../commerce/coupons/coupon-usage.entity';
import { Coupon } from '../commerce/coupons/coupon.entity';
import { CustomerAddress } from '../commerce/customers/customer-address.entity';
import { Customer } from '../commerce/customers/customer.entity';
import { EmailVerification } from '../commerce/customers/email-verification.entity';
import { MarketingConsent } from '../commerce/marketing/marketing-consent.entity';
import { NewsletterSubscriber } from '../commerce/marketing/newsletter-subscriber.entity';
import { PasswordReset } from '../commerce/customers/password-reset.entity';
import { WatchdogAlert } from '../commerce/marketing/watchdog-alert.entity';
import { WishlistItem } from '../commerce/wishlists/wishlist-item.entity';
import { Wishlist } from '../commerce/wishlists/wishlist.entity';
import { GiftCardDesign } from '../commerce/gift-cards/gift-card-design.entity';
import { GiftCardMovement } from '../commerce/gift-cards/gift-card-movement.entity';
import { GiftCardProduct } from '../commerce/gift-cards/gift-card-product.entity';
import { GiftCard } from '../commerce/gift-cards/gift-card.entity';
import { AbandonedCartRecovery } from '../commerce/marketing/abandoned-cart-recovery.entity';
import { AbandonedCartReminder } from '../commerce/marketing/abandoned-cart-reminder.entity';
import { Order } from '../commerce/orders/order.entity';
import { OrderHistory } from '../commerce/orders/order-history.entity';
import { AuditEntry } from '../commerce/audit/audit-entry.entity';
import { OrderLine } from '../commerce/orders/order-line.entity';
import { SalesDocumentCounter } from '../commerce/invoices/sales-document-counter.entity';
import { SalesDocumentPdfPart } from '../commerce/invoices/sales-document-pdf-part.entity';
import { SalesDocument } from '../commerce/invoices/sales-document.entity';
import { PaymentTransaction } from '../commerce/payments/payment-transaction.entity';
import { Product } from '../commerce/products/product.entity';
import { Refund, RefundLine } from '../commerce/refunds/refund.entity';
import { ContentPage } from '../commerce/content/content-page.entity';
import { OrderReturn, OrderReturnHistory, OrderReturnLine } from '../commerce/returns/return.entity';
import { ProductRelation } from '../commerce/products/product-relation.entity';
import { PriceChange } from '../commerce/products/price-history.entity';
import { ProductImage } from '../commerce/products/product-image.entity';
import { ProductSafety } from '../commerce/products/product-safety.entity';
import { ProductVariant } from '../commerce/products/product-variant.entity';
import { ShippingMethod } from '../commerce/shipping/shipping-method.entity';
import { Currency } from '../commerce/stores/currency.entity';
import { Store } from '../commerce/stores/store.entity';
import { License } from '../config/licenses/license.entity';
import { SettingRow } from '../config/setting.entity';
import { CpPasswordLink } from '../commerce/staff/cp-password-link.entity';
import { CpUser } from '../commerce/staff/cp-user.entity';
import { VatRate } from '../commerce/tax/vat-rate.entity';
import { FlowRun } from '../flow/flow-run.entity';
import { Flow } from '../flow/flow.entity';
import { CarrierAAutoShipment } from '../plugins/carrier-a/carrier-a-auto-shipment.entity';
import { CarrierALabelMonth } from '../plugins/carrier-a/carrier-a-label-month.entity';
import { CarrierAParcelClaim } from '../plugins/carrier-a/carrier-a-parcel-claim.entity';
import { CarrierAShipment } from '../plugins/carrier-a/carrier-a-shipment.entity';
import { Job } from '../jobs/job.entity';
import { Withdrawal, WithdrawalLine } from '../commerce/withdrawals/withdrawal.entity';
import { SessionRow } from '../web/session.entity';
import { Category } from '../commerce/categories/category.entity';
import { ProductCategory } from '../commerce/categories/product-category.entity';
import { Attribute } from '../commerce/attributes/attribute.entity';
import { AttributeValue } from '../commerce/attributes/attribute-value.entity';
import { ProductAttributeValue } from '../commerce/attributes/product-attribute-value.entity';
import { SearchSynonym } from '../commerce/catalog/search-synonym.entity';
import { SearchMiss } from '../commerce/catalog/search-miss.entity';

/** Every entity of the service; migrations must create exactly these tables. */
export const ENTITIES = [
  SettingRow,
  Store,
  Currency,
  Product,
  ProductVariant,
  PriceChange,
  ProductRelation,
  ProductImage,
  ProductSafety,
  Category,
  ProductCategory,
  Attribute,
  AttributeValue,
  ProductAttributeValue,
  SearchSynonym,
  SearchMiss,
  Cart,
  CartLine,
  CartAdd,
  Order,
  OrderLine,
  OrderHistory,
  PaymentTransaction,
  Refund,
  RefundLine,
  OrderReturn,
  OrderReturnLine,
  OrderReturnHistory,
  ContentPage,
  ShippingMethod,
  Shipment,
  SessionRow,
  CpUser,
  CpPasswordLink,
  Job,
  Coupon,
  CouponUsage,
  DeliverySlot,
  DeliverySlotBooking,
  Customer,
  CustomerAddress,
  Wishlist,
  WishlistItem,
  WatchdogAlert,
  NewsletterSubscriber,
  MarketingConsent,
  PasswordReset,
  EmailVerification,
  CarrierAShipment,
  CarrierAAutoShipment,
  CarrierALabelMonth,
  CarrierAParcelClaim,
  License,
  Flow,
  FlowRun,
  AbandonedCartReminder,
  AbandonedCartRecovery,
  GiftCardDesign,
  GiftCard,
  GiftCardMovement,
  GiftCardProduct,
  SalesDocument,
  SalesDocumentCounter,
  SalesDocumentPdfPart,
  Withdrawal,
  WithdrawalLine,
  VatRate,
  AuditEntry,
];
