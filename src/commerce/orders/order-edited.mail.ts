import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { OrderMails } from '../order-mails/order-mails.service';
import { OrderHistory } from './order-history.entity';
import { amountDue } from './order.entity';

/** What staff changed, as the shopper is told: each has its sentence in `mail.edited`. */
export type OrderEditChange = 'shipping-address' | 'billing-address' | 'contact' | 'note';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    /** `historyId`: the edit's row in the order's history, which tells one edit from the next. */
    edited: { historyId: number; change: OrderEditChange };
    /** `paymentId`: the payment the edit withdrew at the gateway. */
    'payment-link': { paymentId: number };
  }
}

/**
 * The e-mails of staff's edits to a placed order (`OrderEdits`), each queued in the edit's transaction:
 * - `edited` (`order-edited` templates, `salesOrderEditedMail`): an address, the contact or a note for the shopper
 *   changed; one per edit, saying what changed, the order below with its addresses as they are now; it goes to the
 *   order's address as it is when the mail is written (after a contact edit: the new one);
 * - `payment-link` (`order-payment-link` templates, `salesPaymentLinkMail`): new lines withdrew the payment the
 *   gateway held; the new amount and the order's pay link. None once the order no longer awaits its payment.
 */
@Injectable()
export class OrderEditedMail implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orderMails: OrderMails,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.orderMails.define('edited', {
      setting: 'salesOrderEditedMail',
      once: ({ historyId }) => historyId,
      facts: async ({ order, t }, { historyId, change }) => {
        const note =
          change === 'note'
            ? ((await this.dataSource.getRepository(OrderHistory).findOneBy({ id: historyId, customerVisible: true }))
                ?.note ?? null)
            : null;
        if (change === 'note' && !note) return null;
        return {
          edit: {
            change,
            /** The key of the sentence that says what changed. */
            sentence: `mail.edited.${change}`,
            note,
            email: order.email,
            phone: order.billingAddress.phone || t('mail.edited.noPhone'),
          },
        };
      },
    });
    this.orderMails.define('payment-link', {
      setting: 'salesPaymentLinkMail',
      once: ({ paymentId }) => paymentId,
      facts: async ({ order, money }) =>
        order.status === 'pending_payment'
          ? {
              due: money(amountDue(order)),
              payUrl: `${this.config.baseUrl}/shop/order/pay/${order.number}`,
            }
          : null,
    });
  }
}
