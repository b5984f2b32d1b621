import { Controller, Param, ParseIntPipe, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PaymentStatusPoller } from '../commerce/payments/payment-status-poller';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { addFlash } from '../common/session-data';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';

/** The spec's shared `core/payment-transactions` routes: the Check Payment Status button of the order page. */
@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('core/payment-transactions')
export class CpPaymentTransactionsController {
  constructor(
    private readonly poller: PaymentStatusPoller,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Asks the gateway now and settles what it says, exactly as a return or the poller would. */
  @Post('check-payment-status/:orderId')
  async checkPaymentStatus(
    @Param('orderId', ParseIntPipe) orderId: number,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const check = await this.poller.checkNow(orderId);
    if (!check) addFlash(req, 'info', 'This order has no payment waiting for the bank.');
    else if (!check.outcome) addFlash(req, 'error', 'The bank could not be asked right now. Try again in a minute.');
    else if (check.changed) addFlash(req, 'success', `Payment status updated: ${check.outcome.note}.`);
    else addFlash(req, 'info', `No change: ${check.outcome.note}.`);
    res.redirect(303, `/${this.config.cpTrigger}/orders/${orderId}`);
  }
}
