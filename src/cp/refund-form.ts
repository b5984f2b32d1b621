import { IsIn, IsNotEmpty, IsNumberString, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { parseLineQuantities, parseRefundLines } from '../commerce/refunds/refund-input';
import { RefundInput, RefundResult, RefundService } from '../commerce/refunds/refund.service';
import { CurrencyService } from '../commerce/stores/currency.service';
import { AppError } from '../common/errors/app-error';
import { formatMoney } from '../common/money-format';

/** A checkbox as a form posts it (`on`) or a script sends it (`true`). */
export const TICKED = ['on', 'true', true];

/**
 * The CP refund form (the order page's, a received return's), also posted as JSON: lines as `qty[line<ID>]`
 * fields (the form) or `lines` `ID:QTY,…`, a free `amount` in major units, or `full` for everything left. The form
 * carries the idempotency key it was shown with; a script sends its own in `Idempotency-Key`.
 */
export class RefundFormDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  amount?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  lines?: string;

  @IsOptional()
  @IsObject()
  qty?: Record<string, string>;

  @IsOptional()
  @IsIn([...TICKED, 'false', false])
  restock?: string | boolean;

  @IsOptional()
  @IsIn([...TICKED, 'false', false])
  full?: string | boolean;

  @IsOptional()
  @IsString()
  @MaxLength(191)
  reference?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,100}$/)
  idempotencyKey?: string;

  @IsOptional()
  @IsNumberString({ no_symbols: true })
  paymentId?: string;
}

/** The refund a posted form asks for, but for its order, `full` and the idempotency key, which each page decides. */
export function refundRequest(
  body: RefundFormDto,
  actor: string,
): Omit<RefundInput, 'orderId' | 'full' | 'idempotencyKey'> {
  const amount = body.amount?.trim() ? Number(body.amount.trim()) : undefined;
  if (amount !== undefined && !Number.isFinite(amount)) throw AppError.invalid({ amount: ['must be a number'] });
  return {
    paymentId: body.paymentId ? Number(body.paymentId) : undefined,
    lines: [...parseRefundLines(body.lines ?? ''), ...parseLineQuantities(body.qty ?? {})],
    amount,
    restock: TICKED.includes(body.restock ?? false),
    reason: body.reason,
    reference: body.reference,
    actor,
  };
}

/** What staff are told of a refund made (or found again by its key), and its report for the JSON answer. */
export async function refundDone(result: RefundResult, refunds: RefundService, currencies: CurrencyService) {
  const report = await refunds.report(result);
  const done = formatMoney(result.refund.amount, await currencies.recorded(result.refund.currency));
  const message = result.replayed
    ? `This refund (${done}) was made already.`
    : report.status === 'pending'
      ? `The bank has not confirmed the refund of ${done} yet: it stays pending and is checked with the bank again.`
      : `Refunded ${done}.`;
  return { message, report };
}
