import { randomUUID } from 'node:crypto';
import { Command, CommandRunner, Option } from 'nest-commander';
import { AppError } from '../common/errors/app-error';
import { OrdersService } from '../commerce/orders/orders.service';
import { parseRefundLines } from '../commerce/refunds/refund-input';
import { RefundService } from '../commerce/refunds/refund.service';
import { printResult } from './output';

interface Options {
  amount?: number;
  lines?: string;
  restock?: boolean;
  reason?: string;
  reference?: string;
  payment?: number;
}

@Command({
  name: 'orders:refund',
  arguments: '<order>',
  description:
    'Refund an order (by its number or reference): lines, a further amount in major units, or everything left ' +
    'when neither is given',
})
export class OrdersRefundCommand extends CommandRunner {
  constructor(
    private readonly orders: OrdersService,
    private readonly refunds: RefundService,
  ) {
    super();
  }

  async run([numberOrReference]: string[], options: Options): Promise<void> {
    const order = await this.orders.byNumberOrReference(numberOrReference);
    if (!order) throw AppError.notFound(`No order ${numberOrReference}`);
    if (options.amount !== undefined && !Number.isFinite(options.amount))
      throw AppError.invalid({ amount: ['must be a number'] }, '--amount must be a number in major units, e.g. 12.50');
    const lines = parseRefundLines(options.lines ?? '');
    const result = await this.refunds.refund({
      orderId: order.id,
      // One run is one request: a key of its own.
      idempotencyKey: randomUUID(),
      paymentId: options.payment,
      lines,
      amount: options.amount,
      full: options.amount === undefined && lines.length === 0,
      restock: options.restock === true,
      reason: options.reason ?? 'Refunded from the command line',
      reference: options.reference,
      actor: 'cli',
    });
    printResult(await this.refunds.report(result));
  }

  @Option({ flags: '--amount <amount>', description: 'a further amount in major units, e.g. 4.90 (shipping)' })
  parseAmount(value: string): number {
    return Number(value);
  }

  @Option({ flags: '--lines <lines>', description: 'order lines and quantities, LINE_ID:QTY,… e.g. 12:1,13:2' })
  parseLines(value: string): string {
    return value;
  }

  @Option({ flags: '--restock', description: 'put the refunded lines back in stock' })
  parseRestock(): boolean {
    return true;
  }

  @Option({ flags: '--reason <text>', description: 'why, for the order history' })
  parseReason(value: string): string {
    return value;
  }

  @Option({
    flags: '--reference <text>',
    description: "your bank transfer's reference, for payments the gateway cannot refund (cash on delivery, transfer)",
  })
  parseReference(value: string): string {
    return value;
  }

  @Option({ flags: '--payment <id>', description: "the payment's id; the first with money left when absent" })
  parsePayment(value: string): number {
    return Number(value);
  }
}
