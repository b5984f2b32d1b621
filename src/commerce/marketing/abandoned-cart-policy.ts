import { SettingsService } from '../../config/settings.service';

const MINUTE = 60_000;

/** When a cart counts as abandoned and when its reminders fall due, from the settings (in ms). */
export interface AbandonedCartPolicy {
  idleMs: number;
  reminderDelaysMs: number[];
}

export function abandonedCartPolicy(settings: SettingsService): AbandonedCartPolicy {
  return {
    idleMs: settings.get('salesAbandonedCartsIdleMinutes') * MINUTE,
    reminderDelaysMs: settings.get('salesAbandonedCartsReminderDelays').map((minutes) => minutes * MINUTE),
  };
}

/**
 * When reminder `index` is due: its delay after the last activity, but never before the cart counts as
 * abandoned. New activity therefore postpones the reminders still to come; it does not start the
 * sequence over, so a shopper who keeps coming back gets at most one sequence per cart.
 */
export function reminderDueAt(policy: AbandonedCartPolicy, lastActivityAt: number, index: number): number {
  return lastActivityAt + Math.max(policy.idleMs, policy.reminderDelaysMs[index]);
}
