import { Controller, Get, Param, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { BankScopes, BankTokenGuard, BankTrafficGuard } from './bankpay-api.guards';
import { requestOrigin } from './bankpay-input';
import { readApplication } from './bankpay-requests';
import { BANKPAY_BASE } from './bankpay-sandbox.model';
import { BankpaySandboxState } from './bankpay-sandbox.state';
import { bankError, SandboxAnswerFilter } from '../common/sandbox-answers';

/** Pay-later loan applications (docs/integrations.md "Loan application"), with a PAY_LATER token. */
@ApiExcludeController()
@SkipCsrf()
@BankScopes(['PAY_LATER'])
@UseGuards(BankTrafficGuard, BankTokenGuard)
@UseFilters(SandboxAnswerFilter)
@Controller(`${BANKPAY_BASE}/v1/applications`)
export class BankpayApplicationsController {
  constructor(private readonly state: BankpaySandboxState) {}

  @Post()
  create(@Req() req: Request) {
    const application = this.state.createApplication(readApplication(req));
    return {
      applicationId: application.id,
      redirectUrl: `${requestOrigin(req)}${BANKPAY_BASE}/loan/${application.id}`,
    };
  }

  @Get(':id/status')
  status(@Param('id') id: string) {
    const application = this.state.application(id);
    if (!application) throw bankError(400, 'APPLICATION_NOT_FOUND', `No application ${id}.`);
    return { status: application.status };
  }
}
