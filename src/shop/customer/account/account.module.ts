import { Module } from '@nestjs/common';
import { ReturnsModule } from '../../../commerce/returns/returns.module';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { AccountOrderViews } from './account-order-view.service';
import { AccountOrdersController } from './account-orders.controller';
import { AccountReturnsController } from './account-returns.controller';
import { AccountController } from './account.controller';
import { AddressBookController } from './address-book.controller';
import { CustomerSectionsService } from './customer-sections.service';

/**
 * Account pages: dashboard, login details, deletion, orders, invoices, address book; and the private
 * page sections (`section-load`) that the session controller serves.
 */
@Module({
  imports: [CustomerCoreModule, ReturnsModule],
  controllers: [AccountController, AccountOrdersController, AccountReturnsController, AddressBookController],
  providers: [AccountOrderViews, CustomerSectionsService],
  exports: [CustomerSectionsService],
})
export class AccountModule {}
