import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { PaymentTransactionStatus } from './payment-attempt-lifecycle';

/** A payment attempt for an order with a gateway. `(gateway, reference)` is unique so a return settles once. */
@Entity('payment_transactions')
@Index(['gateway', 'reference'], { unique: true })
@Index(['orderId'])
export class PaymentTransaction extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  /** Gateway handle, e.g. `bankpay` or `core`. */
  @Column({ type: 'varchar', length: 64 })
  gateway: string;

  /** Dispatch code of the payment method used, e.g. `bankpay-qr`. */
  @Column({ type: 'varchar', length: 64 })
  code: string;

  /** The gateway's id for this attempt (payment id, application id); ours until the gateway gives one. */
  @Column({ type: 'varchar', length: 191 })
  reference: string;

  /** What was asked for, and what the gateway reported as paid once it settled (minor units). */
  @Column({ type: 'integer' })
  amount: number;

  @Column({ type: 'integer', nullable: true })
  paidAmount: number | null;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 16 })
  status: PaymentTransactionStatus;

  @Column({ type: 'simple-json' })
  extra: Record<string, unknown>;

  /**
   * Money that came in for an order that no longer needed it (paid after the payment deadline canceled the
   * order, or a second attempt paid an order another one had paid): staff must give it back.
   */
  @Column({ type: 'boolean', default: false })
  refundDue: boolean;
}
