import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { AddressBookService } from '../../../commerce/customers/address-book.service';
import { customerSummary } from '../auth/customer-auth.controller';
import { destroySession } from '../auth/customer-session';
import { CustomerThrottlerGuard } from '../auth/customer-throttler.guard';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { changeDone } from '../translated-answers';
import { AccountDeletionService } from '../../../commerce/customers/account-deletion.service';
import { AccountOrderViews } from './account-order-view.service';
import { addressView } from './address-view';
import { CustomerOrdersService } from '../../../commerce/customers/customer-orders.service';
import { DeleteAccountDto, LoginDetailsDto } from './dto/account.dto';
import { LoginDetailsService } from '../../../commerce/customers/login-details.service';

/** How many of the latest orders the dashboard shows. */
const RECENT_ORDERS = 3;

/** Password checks per minute and account: enough for typos, too few to guess a password. */
const PASSWORD_CHECKS_PER_MINUTE = 10;

/** The account dashboard, login details and account deletion. */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account')
export class AccountController {
  constructor(
    private readonly orders: CustomerOrdersService,
    private readonly orderViews: AccountOrderViews,
    private readonly addresses: AddressBookService,
    private readonly loginDetails: LoginDetailsService,
    private readonly deletion: AccountDeletionService,
  ) {}

  @Get()
  async dashboard(
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView> {
    const customer = req.customer!;
    const [recent, addresses] = await Promise.all([
      this.orders.page(customer.id, 1, undefined, RECENT_ORDERS),
      this.addresses.list(customer.id),
    ]);
    const billing = addresses.find((address) => address.isDefaultBilling);
    const shipping = addresses.find((address) => address.isDefaultShipping);
    return new PageView('shop/account/dashboard', {
      title: text('account.title'),
      csrf: true,
      customer: customerSummary(customer),
      recentOrders: await this.orderViews.rows(recent.orders, language),
      moreOrders: recent.pages > 1,
      defaultBilling: billing ? addressView(billing) : null,
      defaultShipping: shipping ? addressView(shipping) : null,
    });
  }

  @Get('login-details')
  loginDetailsPage(@Req() req: Request, @PageText() text: PageTextFn): PageView {
    return new PageView('shop/account/login-details', {
      title: text('account.loginDetails.title'),
      csrf: true,
      customer: customerSummary(req.customer!),
      hasPassword: req.customer!.passwordHash !== null,
    });
  }

  @Post('login-details/save')
  @HttpCode(200)
  @UseGuards(CustomerThrottlerGuard)
  @Throttle({ default: { limit: PASSWORD_CHECKS_PER_MINUTE, ttl: 60_000 } })
  async saveLoginDetails(@Body() body: LoginDetailsDto, @Req() req: Request): Promise<FormAnswer> {
    const result = await this.loginDetails.save(req.customer!, body, req.ip);
    // This browser stays logged in; every other session of the account ends at its next request.
    if (result.passwordChanged) req.session.customerAuthVersion = result.customer.authVersion;
    const changed = result.emailChanged || result.passwordChanged;
    const message = { key: changed ? 'account.loginDetails.saved' : 'account.loginDetails.unchanged' };
    return changeDone(
      message,
      { to: '/shop/account/login-details' },
      {
        customer: customerSummary(result.customer),
        emailChanged: result.emailChanged,
        passwordChanged: result.passwordChanged,
      },
    );
  }

  @Post('delete')
  @HttpCode(200)
  @UseGuards(CustomerThrottlerGuard)
  @Throttle({ default: { limit: PASSWORD_CHECKS_PER_MINUTE, ttl: 60_000 } })
  async deleteAccount(@Body() body: DeleteAccountDto, @Req() req: Request): Promise<FormAnswer> {
    await this.deletion.delete(req.customer!, body.password);
    await destroySession(req);
    return changeDone({ key: 'account.loginDetails.deleted' }, { to: '/' }, { redirect: '/' });
  }
}
