import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { Tx } from '../../database/transaction-runner';

export interface PaymentPollPayload {
  transactionId: number;
  round: number;
}

export const PAYMENT_POLL_JOB = defineJob<PaymentPollPayload>('payment.poll');

const MINUTE = 60 * 1000;

/** docs/integrations.md: every 5 minutes in the first hour, then hourly until the attempt is a day old. */
export const POLL_SCHEDULE = { earlyEveryMs: 5 * MINUTE, earlyForMs: 60 * MINUTE, lateEveryMs: 60 * MINUTE };
export const GIVE_UP_AFTER_MS = 24 * 60 * MINUTE;

/** Queues check number `round` of an attempt in the caller's transaction; the key makes each round once. */
export function schedulePaymentPoll(jobs: JobQueue, tx: Tx, transactionId: number, round: number, ageMs: number) {
  const delayMs = ageMs < POLL_SCHEDULE.earlyForMs ? POLL_SCHEDULE.earlyEveryMs : POLL_SCHEDULE.lateEveryMs;
  return jobs.enqueue(tx, PAYMENT_POLL_JOB, { transactionId, round } satisfies PaymentPollPayload, {
    key: `payment-poll:${transactionId}:${round}`,
    delayMs,
  });
}
