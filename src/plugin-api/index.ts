/**
 * The plugin API: everything a plugin may import from the app (dependency-cruiser enforces it). A plugin
 * declares what it adds in a `StorefrontPlugin`; the rest are the ports it builds those additions from.
 * Entity base classes are in `./entity`. How to write a plugin: README.md.
 */

// What a plugin declares, and its settings
export { PluginDeclaration } from './storefront-plugin';
export type { PluginCp, SiteEndpoint, StorefrontPlugin } from './storefront-plugin';
export type { DashboardFacts, PluginDashboard, PluginSettingsSection } from '../config/plugin-panels/plugin-panels';
export { PluginSettingsModule } from '../config/settings.module';
export type { SettingDefinition } from '../config/setting-definition';
export { SETTINGS_SAVED, SettingsService } from '../config/settings.service';
export type { FlagKey, SettingKey, SettingLists, SettingValues, SettingsSavedEvent } from '../config/settings.service';

// Events: the core's, emitted and handled with their payload types
export { DomainEvents, OnDomainEvent } from '../common/domain-events';
export { InjectConfig } from '../config/config.module';
export type { AppConfig } from '../config/app-config';

// Payments
export type {
  PaymentContext,
  PaymentGateway,
  PaymentInstruction,
  PaymentMethodDescriptor,
  PaymentOutcome,
  PaymentRequest,
  PaymentReturn,
  PaymentStart,
  PaymentStatusQuery,
  RefundOutcome,
  RefundRequest,
} from '../commerce/payments/payment-gateway';
export { PaymentTransaction } from '../commerce/payments/payment-transaction.entity';

// Shipping
export type { ShippingProvider } from '../commerce/shipping/shipping-method.registry';
export { ShippingMethod } from '../commerce/shipping/shipping-method.entity';
export { parseShippingMethodId, shippingMethodId, tableRate } from '../commerce/shipping/shipping-quote';
export type { ShippingContext, ShippingQuote, ShippingWidget } from '../commerce/shipping/shipping-quote';

// Shipments: a carrier plugin reports its parcels and declares how they are tracked and canceled
export { ShipmentsService } from '../commerce/shipments/shipments.service';
export type { ParcelReport } from '../commerce/shipments/shipments.service';
export type { CarrierTracking, ShipmentCarrier } from '../commerce/shipments/shipment-carrier.registry';
export type { ShipmentStatus } from '../commerce/shipments/shipment-lifecycle';
export type { TrackingEvent } from '../commerce/shipments/shipment.entity';

// Orders, carts and the store
export { amountDue, Order } from '../commerce/orders/order.entity';
export { OrderLine } from '../commerce/orders/order-line.entity';
export { ORDER_STATUSES } from '../commerce/orders/order-status.machine';
export { OrderStatusService } from '../commerce/orders/order-status.service';
export type { OrderStatusChange } from '../commerce/orders/order-status.service';
export type { OrderPageAction, OrderPageSection } from '../commerce/orders/order-page-sections';
export type { Address } from '../commerce/carts/cart.entity';
export { Currency } from '../commerce/stores/currency.entity';
export { CurrencyService } from '../commerce/stores/currency.service';
export { Store } from '../commerce/stores/store.entity';
export { convertMinor, toMajor, toMinor } from '../common/money';

// Writes and jobs
export { TransactionRunner } from '../database/transaction-runner';
export type { Tx } from '../database/transaction-runner';
export { writeLock } from '../database/locking';
export { isSqlite } from '../database/data-source-options';
export { defineJob, JobGaveUp, JobQueue } from '../jobs/job-queue.service';
export { Job } from '../jobs/job.entity';

// Calls to outside services
export { AddressGuard } from '../common/outbound-address';
export { exchange, OutboundError, requestJson } from '../common/outbound-http';
export type { OutboundRequest } from '../common/outbound-http';
export { AppError } from '../common/errors/app-error';
export { commonErrors } from '../common/errors/common-errors';
export { errorCatalogue } from '../common/errors/error-catalogue';

// CP pages: the plugin's own (permission, answers, lists), and what its declared dashboard and settings are made of
export { CpPermission } from '../common/decorators/cp-permission.decorator';
export { FileAnswer, FormAnswer, JsonAnswer, PageView, Redirect } from '../web/answers/answers';
export type { BrowserTarget, FlashKind, PageMessage } from '../web/answers/answers';
export { RefusedGoesTo } from '../web/answers/refused-form.decorator';
export { PageText } from '../web/i18n/page-text.decorator';
export type { PageTextFn } from '../web/i18n/page-text.decorator';
export { CpListQuery } from '../common/cp-list.query';
export type { ListSort } from '../common/cp-list.query';
export { CpConfirmationDto, requireConfirmation } from '../common/cp-confirmation';
export { csvFile, csvLine } from '../common/csv';
export { backUrl } from '../common/back-url';
export { addFlash, wantsHtml } from '../common/session-data';
export { DashboardLayout } from '../config/dashboard-layout';
export { fieldName } from '../config/setting-definition';
export { maskSecret, SettingsForm } from '../config/settings-form';
