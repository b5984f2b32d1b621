import { DynamicModule, Module } from '@nestjs/common';
import { AppModule } from '../app.module';
import { GiftCardsModule } from '../commerce/gift-cards/gift-cards.module';
import { AppConfig } from '../config/app-config';
import { CpModule } from '../cp/cp.module';
import { FlowModule } from '../flow/flow.module';
import { CouponsCreateCommand } from './coupons-create.command';
import { CpCreateUserCommand } from './cp-create-user.command';
import { DemoRemoveCommand } from './demo-remove.command';
import { FlowsCreateCommand } from './flows-create.command';
import { GiftCardsIssueCommand } from './giftcards-issue.command';
import { JobsWorkCommand } from './jobs-work.command';
import { MigrationsRunCommand } from './migrations-run.command';
import { OrdersRefundCommand } from './orders-refund.command';
import { OrdersSetStatusCommand } from './orders-set-status.command';
import { SettingsGetCommand, SettingsSetCommand } from './settings.commands';
import { SetupCommand } from './setup.command';
import { VatRatesListCommand, VatRatesSetCommand } from './vat-rates.commands';

@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [AppModule.register(config), CpModule, FlowModule, GiftCardsModule],
      providers: [
        SettingsGetCommand,
        SettingsSetCommand,
        CpCreateUserCommand,
        JobsWorkCommand,
        MigrationsRunCommand,
        OrdersSetStatusCommand,
        OrdersRefundCommand,
        CouponsCreateCommand,
        FlowsCreateCommand,
        GiftCardsIssueCommand,
        SetupCommand,
        DemoRemoveCommand,
        VatRatesListCommand,
        VatRatesSetCommand,
      ],
    };
  }
}
