import { Command, CommandRunner } from 'nest-commander';
import { AppError } from '../common/errors/app-error';
import { isOrderStatus, ORDER_STATUSES } from '../commerce/orders/order-status.machine';
import { OrderStatusService } from '../commerce/orders/order-status.service';
import { OrdersService } from '../commerce/orders/orders.service';
import { printResult } from './output';

@Command({
  name: 'orders:set-status',
  arguments: '<order> <status>',
  description: `Change an order's status (${ORDER_STATUSES.join(', ')}); the order by its number or reference`,
})
export class OrdersSetStatusCommand extends CommandRunner {
  constructor(
    private readonly orders: OrdersService,
    private readonly statuses: OrderStatusService,
  ) {
    super();
  }

  async run([numberOrReference, status]: string[]): Promise<void> {
    if (!isOrderStatus(status)) throw AppError.invalid({ status: [`must be one of ${ORDER_STATUSES.join(', ')}`] });
    const order = await this.orders.byNumberOrReference(numberOrReference);
    if (!order) throw AppError.notFound(`No order ${numberOrReference}`);
    const change = await this.statuses.change(order.id, status, 'cli');
    printResult({
      orderNumber: order.number,
      reference: order.reference,
      from: order.status,
      to: status,
      changed: change !== null,
    });
  }
}
