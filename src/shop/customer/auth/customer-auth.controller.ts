import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { CustomerAccountsService } from './customer-accounts.service';
import { LoginDto, RegisterDto } from './customer-auth.dto';
import { logInSession } from './customer-session';

/** The customer's public name and e-mail, as login and registration answer them. */
export function customerSummary(customer: { email: string; firstName: string; lastName: string }) {
  return { email: customer.email, firstName: customer.firstName, lastName: customer.lastName };
}

/** Registration and login as JSON (spec "Customer and authentication"). */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@Controller('shop')
export class CustomerAuthController {
  constructor(private readonly accounts: CustomerAccountsService) {}

  @Post('register')
  @HttpCode(200)
  async register(@Body() body: RegisterDto, @Req() req: Request) {
    const customer = await this.accounts.register(body);
    await logInSession(req, customer, false);
    return { success: true, customer: customerSummary(customer) };
  }

  @Post('ajax-authorize')
  @HttpCode(200)
  async ajaxAuthorize(@Body() body: LoginDto, @Req() req: Request) {
    const customer = await this.accounts.authenticate(body.loginName, body.password);
    if (!customer) throw new AppError('invalid_credentials', 'The e-mail or password is not right.', 401);
    await logInSession(req, customer, body.rememberMe === true);
    return { success: true, customer: customerSummary(customer) };
  }
}
