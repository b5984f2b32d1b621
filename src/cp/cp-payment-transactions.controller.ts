import { Controller, Param, ParseIntPipe, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PaymentStatusPoller } from '../commerce/payments/payment-status-poller';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { FormAnswer } from '../web/answers/answers';

/** The shared `core/payment-transactions` routes: the Check Payment Status button of the order page. */
@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('core/payment-transactions')
export class CpPaymentTransactionsController {
  constructor(
    private readonly poller: PaymentStatusPoller,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Asks the gateway now and settles what it says, exactly as a return or the poller would. Each outcome has its
   * own kind of flash.
   */
  @Post('check-payment-status/:orderId')
  async checkPaymentStatus(@Param('orderId', ParseIntPipe) orderId: number): Promise<FormAnswer> {
    const check = await this.poller.checkNow(orderId);
    const order = { to: `/${this.config.cpTrigger}/orders/${orderId}` };
    if (!check) return FormAnswer.note('info', 'This order has no payment waiting for the bank.', order);
    if (!check.outcome) {
      return FormAnswer.note('error', 'The bank could not be asked right now. Try again in a minute.', order);
    }
    if (check.changed) return FormAnswer.note('success', `Payment status updated: ${check.outcome.note}.`, order);
    return FormAnswer.note('info', `No change: ${check.outcome.note}.`, order);
  }
}
