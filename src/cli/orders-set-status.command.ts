import { Command, CommandRunner } from 'nest-commander';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { isOrderStatus, ORDER_STATUSES } from '../commerce/orders/order-status.machine';
import { OrderStatusService } from '../commerce/orders/order-status.service';
import { Order } from '../commerce/orders/order.entity';
import { printResult } from './output';

@Command({
  name: 'orders:set-status',
  arguments: '<orderNumber> <status>',
  description: `Change an order's status (${ORDER_STATUSES.join(', ')})`,
})
export class OrdersSetStatusCommand extends CommandRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly statuses: OrderStatusService,
  ) {
    super();
  }

  async run([orderNumber, status]: string[]): Promise<void> {
    if (!isOrderStatus(status)) throw AppError.invalid({ status: [`must be one of ${ORDER_STATUSES.join(', ')}`] });
    const order = await this.dataSource.getRepository(Order).findOneBy({ number: orderNumber });
    if (!order) throw AppError.notFound(`No order ${orderNumber}`);
    const change = await this.statuses.change(order.id, status, 'cli');
    printResult({ orderNumber, from: order.status, to: status, changed: change !== null });
  }
}
