import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, RouterModule } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { LoggerModule } from 'nestjs-pino';
import { AppCacheModule } from './cache/app-cache.module';
import { DependencyOutagesModule } from './common/dependency-outages';
import { DomainEventsModule } from './common/domain-events';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { sandboxMerchantKey } from './common/sandbox-merchant-key';
import { ThrottlingModule } from './common/throttling/throttling.module';
import { CpPermissionsModule } from './common/cp-permissions';
import { AuditModule } from './commerce/audit/audit-log.service';
import { CpGuard } from './common/guards/cp.guard';
import { CsrfGuard } from './common/guards/csrf.guard';
import { CommerceModule } from './commerce/commerce.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { PluginPanelsCpModule } from './config/plugin-panels/plugin-panels-cp.module';
import { SettingsModule } from './config/settings.module';
import { CpModule } from './cp/cp.module';
import { CpAuditModule } from './cp/audit/cp-audit.module';
import { CpCategoriesModule } from './cp/categories/cp-categories.module';
import { CpAttributesModule } from './cp/attributes/cp-attributes.module';
import { CpContentModule } from './cp/content/cp-content.module';
import { CpSearchModule } from './cp/search/cp-search.module';
import { CpCouponsModule } from './cp/coupons/cp-coupons.module';
import { CpCustomersModule } from './cp/customers/cp-customers.module';
import { CpGiftCardsModule } from './cp/gift-cards/cp-gift-cards.module';
import { CpReportsModule } from './cp/reports/cp-reports.module';
import { CpReturnsModule } from './cp/returns/cp-returns.module';
import { CpWithdrawalsModule } from './cp/withdrawals/cp-withdrawals.module';
import { CpMarketingModule } from './cp/marketing/cp-marketing.module';
import { CpProductsModule } from './cp/products/cp-products.module';
import { CpSettingsModule } from './cp/settings/cp-settings.module';
import { CpShippingModule } from './cp/shipping/cp-shipping.module';
import { CpStaffModule } from './cp/staff/cp-staff.module';
import { DatabaseModule } from './database/database.module';
import { DemoSeedModule } from './database/seeds/demo-seed.module';
import { FlowsCpModule } from './flow/cp/flows-cp.module';
import { FlowModule } from './flow/flow.module';
import { HealthModule } from './health/health.module';
import { JobsModule } from './jobs/jobs.module';
import { MailModule } from './mail/mail.module';
import { PluginApiModule } from './plugin-api/plugin-api.module';
import { BankpayPluginModule } from './plugins/bankpay/bankpay.module';
import { BankpayCpModule } from './plugins/bankpay/cp/bankpay-cp.module';
import { CarrierAPluginModule } from './plugins/carrier-a/carrier-a.module';
import { CarrierACpModule } from './plugins/carrier-a/cp/carrier-a-cp.module';
import { CarrierBPluginModule } from './plugins/carrier-b/carrier-b.module';
import { RedisModule } from './redis/redis.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { CartModule } from './shop/cart/cart.module';
import { CatalogModule } from './shop/catalog/catalog.module';
import { CheckoutModule } from './shop/checkout/checkout.module';
import { ContentModule } from './shop/content/content.module';
import { SeoModule } from './shop/seo/seo.module';
import { CustomerModule } from './shop/customer/customer.module';
import { MarketingModule } from './shop/marketing/marketing.module';
import { PluginEndpointsModule } from './shop/plugin-endpoints/plugin-endpoints.module';
import { AnswerInterceptor } from './web/answers/answer.interceptor';
import { CpNavigationModule } from './web/cp-navigation';
import { loggerOptions } from './web/logger-options';

export interface AppModuleOptions {
  /** Extra modules, e.g. a test plugin. */
  extraModules?: Array<Type | DynamicModule>;
}

/** The control panel's modules: each is imported and mounted under the CP trigger. */
const CP_MODULES = [
  CpModule,
  CpProductsModule,
  CpCategoriesModule,
  CpAttributesModule,
  CpCustomersModule,
  CpCouponsModule,
  CpShippingModule,
  CpMarketingModule,
  CpGiftCardsModule,
  CpReturnsModule,
  CpContentModule,
  CpSearchModule,
  CpWithdrawalsModule,
  CpReportsModule,
  CpSettingsModule,
  CpAuditModule,
  CpStaffModule,
  BankpayCpModule,
  CarrierACpModule,
  FlowsCpModule,
];

@Module({})
export class AppModule {
  static register(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(config),
        LoggerModule.forRoot(loggerOptions(config)),
        EventEmitterModule.forRoot(),
        DomainEventsModule,
        DependencyOutagesModule,
        RedisModule,
        AppCacheModule,
        ThrottlingModule,
        DatabaseModule,
        SettingsModule,
        CpPermissionsModule,
        AuditModule,
        CpNavigationModule,
        JobsModule,
        MailModule,
        CommerceModule,
        HealthModule,
        CatalogModule,
        CartModule,
        CheckoutModule,
        ContentModule,
        SeoModule,
        CustomerModule,
        MarketingModule,
        PluginEndpointsModule,
        FlowModule,
        PluginApiModule,
        BankpayPluginModule,
        CarrierAPluginModule,
        CarrierBPluginModule,
        ...CP_MODULES,
        RouterModule.register(
          [...CP_MODULES, PluginPanelsCpModule].map((module) => ({ path: config.cpTrigger, module })),
        ),
        DemoSeedModule,
        ...(config.sandboxes
          ? [SandboxModule.register({ demoMerchantKey: sandboxMerchantKey(config.sessionSecret) })]
          : []),
        ...(options.extraModules ?? []),
        // Last: Nest registers routes in module order, so its `:handle/…` routes (every plugin's dashboard, settings
        // and license pages) are matched only after every fixed route, the core's and the plugins' own.
        PluginPanelsCpModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: CsrfGuard },
        { provide: APP_GUARD, useClass: CpGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_INTERCEPTOR, useClass: AnswerInterceptor },
      ],
    };
  }
}
