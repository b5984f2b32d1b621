import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { LoginDto, newCustomer, RegisterDto } from './customer-auth.dto';
import { consentWording } from '../../../web/i18n/consent-wording';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { CustomerLoginService } from './customer-login.service';

/** The customer's public name and e-mail, as login and registration answer them. */
export function customerSummary(customer: { email: string; firstName: string; lastName: string }) {
  return { email: customer.email, firstName: customer.firstName, lastName: customer.lastName };
}

/** Registration and login as JSON; the form variants are in the pages controller. */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@Controller('shop')
export class CustomerAuthController {
  constructor(private readonly login: CustomerLoginService) {}

  /**
   * 400 with `fields`, 409 `email_taken` for a registered e-mail, 429 with Retry-After after too many of those;
   * logs the new customer in and mails the link that confirms the address.
   */
  @Post('register')
  @HttpCode(200)
  async register(@Body() body: RegisterDto, @Req() req: Request, @PageText() text: PageTextFn) {
    const customer = await this.login.registerAndLogIn(req, newCustomer(body, consentWording(text, 'marketing')));
    return { success: true, customer: customerSummary(customer) };
  }

  /** 401 `invalid_credentials` alike for unknown names and wrong passwords; 429 with Retry-After when throttled. */
  @Post('ajax-authorize')
  @HttpCode(200)
  async ajaxAuthorize(@Body() body: LoginDto, @Req() req: Request) {
    const customer = await this.login.logIn(req, body.rememberMe === true);
    return { success: true, customer: customerSummary(customer) };
  }
}
