import { formatMoney } from '../../common/money-format';
import { MailMessage } from '../../mail/mail.service';
import { PricedLines } from '../carts/cart-pricing.service';
import { Store } from '../stores/store.entity';

export interface ReminderContent {
  to: string;
  store: Pick<Store, 'name' | 'language'>;
  priced: PricedLines;
  recoveryUrl: string;
  /** 0 for the first reminder: later ones are worded as a follow-up. */
  reminderIndex: number;
  /** The one-click link that withdraws consent to marketing e-mail (ePrivacy Directive Art. 13). */
  optOutUrl: string;
}

/** The reminder e-mail: what is in the cart at today's prices, the link that brings it back and the opt-out. */
export function reminderMessage({
  to,
  store,
  priced,
  recoveryUrl,
  reminderIndex,
  optOutUrl,
}: ReminderContent): MailMessage {
  const money = (minor: number) => formatMoney(minor, priced.currency, store.language);
  const text = [
    'Hello,',
    '',
    `you left these items in your cart at ${store.name}:`,
    '',
    ...priced.lines.map((item) => `${item.line.qty} × ${item.name}  ${money(item.total)}`),
    '',
    `Subtotal: ${money(priced.subtotal)}`,
    '',
    `Pick up where you left off: ${recoveryUrl}`,
    '',
    'Prices and stock are checked again when you come back.',
    '',
    '--',
    `To get no more offers or reminders from ${store.name} at this address, opt out here: ${optOutUrl}`,
  ].join('\n');
  const subject =
    reminderIndex === 0
      ? `You left something in your cart at ${store.name}`
      : `Your cart at ${store.name} is still waiting`;
  return { to, subject, text };
}
