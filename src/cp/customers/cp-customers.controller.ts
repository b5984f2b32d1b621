import { cpActor } from '../../common/session-data';
import { Body, Controller, Get, Header, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CUSTOMER_SORTS, CustomerAdmin } from '../../commerce/customers/customer-admin.service';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { BrowserTarget, FileAnswer, FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { CpListQuery } from '../../common/cp-list.query';
import { EraseCustomerDto } from './cp-customer-forms.dto';

/**
 * Customer accounts as staff see them, behind `accessCustomers`: the list, an account's details, blocking it,
 * mailing it a password reset, and the GDPR export and erasure. The rules are CustomerAdmin's.
 */
@ApiExcludeController()
@CpPermission('accessCustomers')
@Controller('customers')
export class CpCustomersController {
  constructor(
    private readonly customers: CustomerAdmin,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(@Query() query: CpListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const q = query.q ?? '';
    const { key: sort, direction } = query.sortBy(CUSTOMER_SORTS, { key: 'registered', direction: 'DESC' });
    const list = await this.customers.list({ q, sort, direction, page });
    return new PageView('cp/customers', { layout: 'cp', title: 'Customers', ...list, page, q });
  }

  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const detail = await this.customers.detail(id);
    return new PageView('cp/customer', { layout: 'cp', title: detail.customer.name, ...detail });
  }

  @Post(':id/block')
  @HttpCode(200)
  @RefusedGoesTo('customers/:id')
  async block(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    const customer = await this.customers.block(id, cpActor(req));
    return FormAnswer.done(
      `${customer.email} is blocked: they cannot log in, and their open sessions have ended.`,
      this.page(id),
      { blocked: true },
    );
  }

  @Post(':id/unblock')
  @HttpCode(200)
  @RefusedGoesTo('customers/:id')
  async unblock(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    const customer = await this.customers.unblock(id, cpActor(req));
    return FormAnswer.done(`${customer.email} can log in again.`, this.page(id), { blocked: false });
  }

  @Post(':id/password-reset')
  @HttpCode(200)
  @RefusedGoesTo('customers/:id')
  async sendPasswordReset(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    const customer = await this.customers.sendPasswordReset(id, cpActor(req));
    return FormAnswer.done(`A password-reset e-mail is on its way to ${customer.email}.`, this.page(id));
  }

  /** A POST, so a prefetch or a link cannot hand out personal data; the download is recorded in the audit log. */
  @Post(':id/export')
  @HttpCode(200)
  @Header('Cache-Control', 'private, no-store')
  @RefusedGoesTo('customers/:id')
  async exportData(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FileAnswer> {
    const { data } = await this.customers.exportData(id, cpActor(req));
    return new FileAnswer(JSON.stringify(data, null, 2), {
      type: 'application/json; charset=utf-8',
      filename: `customer-${id}-personal-data.json`,
      disposition: 'attachment',
    });
  }

  @Get(':id/erase')
  async eraseForm(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const detail = await this.customers.detail(id);
    return new PageView('cp/customer-erase', { layout: 'cp', title: 'Erase customer', ...detail });
  }

  @Post(':id/erase')
  @HttpCode(200)
  @RefusedGoesTo('customers/:id/erase')
  async erase(
    @Param('id', ParseIntPipe) id: number,
    @Body() _confirmed: EraseCustomerDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    await this.customers.erase(id, cpActor(req));
    return FormAnswer.done(`Customer #${id} is erased; their orders are kept anonymised.`, {
      to: `/${this.config.cpTrigger}/customers`,
    });
  }

  private page(id: number): BrowserTarget {
    return { to: `/${this.config.cpTrigger}/customers/${id}` };
  }
}
