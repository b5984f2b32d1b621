import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FlagKey } from '../../config/settings.service';
import { Tx } from '../../database/transaction-runner';
import { OrderMails } from '../order-mails/order-mails.service';
import { OrderLine } from '../orders/order-line.entity';
import { ReturnStatus } from './return-lifecycle';
import { OrderReturn, OrderReturnLine } from './return.entity';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    'return-approved': { returnId: number };
    'return-refused': { returnId: number };
    'return-received': { returnId: number };
  }
}

/** The moves of a return the customer is told of, each with the setting that switches its e-mail off. */
const TOLD = {
  approved: 'salesReturnApprovedMail',
  refused: 'salesReturnRefusedMail',
  received: 'salesReturnReceivedMail',
} as const satisfies Partial<Record<ReturnStatus, FlagKey>>;

type ToldStatus = keyof typeof TOLD;

/**
 * The e-mails that tell a customer what became of their return (`order-return-<move>` templates): approved (with
 * staff's message, e.g. where to send the goods), refused (with staff's reason), received. Order mails like the
 * others, with the returned items besides the order's, but written in the language the customer asked for the
 * return in. Queued in the move's transaction, once per return and move.
 */
@Injectable()
export class ReturnMails implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orderMails: OrderMails,
  ) {}

  onModuleInit(): void {
    for (const [status, setting] of Object.entries(TOLD) as Array<[ToldStatus, FlagKey]>) {
      this.orderMails.define(`return-${status}`, {
        setting,
        once: ({ returnId }) => returnId,
        language: async (_order, { returnId }) =>
          (await this.dataSource.getRepository(OrderReturn).findOneBy({ id: returnId }))?.language ?? null,
        facts: async (_context, { returnId }) => this.facts(returnId, status),
      });
    }
  }

  /** Queues the e-mail of a return's move in the move's transaction, if the customer hears of that move. */
  async queue(tx: Tx, ret: Pick<OrderReturn, 'id' | 'orderId'>, to: ReturnStatus): Promise<void> {
    if (to in TOLD) await this.orderMails.queue(tx, `return-${to as ToldStatus}`, ret.orderId, { returnId: ret.id });
  }

  /** The return's lines and staff's message of this move: a later move (received) does not repeat the approval's. */
  private async facts(returnId: number, status: ToldStatus) {
    const ret = await this.dataSource.getRepository(OrderReturn).findOneBy({ id: returnId });
    if (!ret) return null;
    const [returned, ordered] = await Promise.all([
      this.dataSource.getRepository(OrderReturnLine).find({ where: { returnId }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(OrderLine).findBy({ orderId: ret.orderId }),
    ]);
    return {
      ret: {
        id: ret.id,
        message: status === 'received' ? null : ret.staffMessage,
        lines: returned.map(({ orderLineId, qty }) => ({
          qty,
          name: ordered.find((line) => line.id === orderLineId)?.name ?? '',
        })),
      },
    };
  }
}
