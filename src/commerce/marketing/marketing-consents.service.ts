import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import { normaliseEmail } from '../../common/email-address';
import { Order } from '../orders/order.entity';
import { ConsentSource, MarketingConsent } from './marketing-consent.entity';

/** A text shown next to a consent checkbox: its versioned locale key and the words as shown. */
export interface ConsentWording {
  key: string;
  text: string;
}

/**
 * Why an address may or may not get marketing e-mail: it agreed (`consent`), it bought from the shop and never
 * objected (`soft_opt_in`, ePrivacy Directive Art. 13(2)), it withdrew or objected (`withdrawn`), or nothing at
 * all (`none`).
 */
export type MarketingBasis = 'consent' | 'soft_opt_in' | 'withdrawn' | 'none';

export interface MarketingStanding {
  basis: MarketingBasis;
  /** The newest consent row, which decided `consent` and `withdrawn`. */
  record: MarketingConsent | null;
}

export interface ConsentChange {
  email: string;
  customerId?: number | null;
  granted: boolean;
  source: ConsentSource;
  wording: ConsentWording;
  /**
   * Whether whoever gave a consent showed they own the address (a confirmed double opt-in, a logged-in account
   * with a verified e-mail). Anyone can type someone else's address at checkout or registration, so such a
   * consent counts only where the address never said no. Unused for withdrawals, which anyone may record.
   */
  verified?: boolean;
}

/** Whether a basis lets the shop send marketing e-mail (newsletters, abandoned-cart reminders). */
export function mayMarket(basis: MarketingBasis): boolean {
  return basis === 'consent' || basis === 'soft_opt_in';
}

/**
 * Consent to marketing e-mail: recorded with time, source and wording in the transaction of the action that
 * collected it, and read back as the address's standing. One standing per address covers every marketing
 * e-mail: withdrawing it anywhere stops all of them.
 */
@Injectable()
export class MarketingConsents {
  constructor(private readonly dataSource: DataSource) {}

  /** Records a consent given or withdrawn (`change.granted`), in the caller's transaction; see grant and withdraw. */
  decide(manager: EntityManager, change: ConsentChange): Promise<boolean> {
    const { granted, ...rest } = change;
    return granted ? this.grant(manager, rest) : this.withdraw(manager, rest);
  }

  /**
   * Records a consent unless the newest row already is this consent with the same wording (a form saved twice),
   * or it is unverified and the address withdrew (an unverified consent never overrides a withdrawal); true when
   * a row was added.
   */
  async grant(manager: EntityManager, change: Omit<ConsentChange, 'granted'>): Promise<boolean> {
    const { record } = await this.standing(change.email, manager);
    if (record?.granted && record.wordingKey === change.wording.key) return false;
    if (record && !record.granted && !change.verified) return false;
    await this.insert(manager, { ...change, granted: true });
    return true;
  }

  /**
   * Records a withdrawal (or a customer's objection) only while the address may still get marketing e-mail, so
   * repeated clicks add no rows; true when a row was added.
   */
  async withdraw(manager: EntityManager, change: Omit<ConsentChange, 'granted'>): Promise<boolean> {
    if (!mayMarket((await this.standing(change.email, manager)).basis)) return false;
    await this.insert(manager, { ...change, granted: false });
    return true;
  }

  async standing(email: string, manager: EntityManager = this.dataSource.manager): Promise<MarketingStanding> {
    const address = normaliseEmail(email);
    const record = await manager.findOne(MarketingConsent, { where: { email: address }, order: { id: 'DESC' } });
    if (record) return { basis: record.granted ? 'consent' : 'withdrawn', record };
    return { basis: (await this.customersAmong(manager, [address])).size > 0 ? 'soft_opt_in' : 'none', record: null };
  }

  private async insert(manager: EntityManager, change: ConsentChange): Promise<void> {
    await manager.insert(MarketingConsent, {
      email: normaliseEmail(change.email),
      customerId: change.customerId ?? null,
      granted: change.granted,
      source: change.source,
      wordingKey: change.wording.key,
      wording: change.wording.text,
    });
  }

  /** The addresses among `emails` (normalised) that may be sent marketing e-mail now. */
  async permitted(manager: EntityManager, emails: string[]): Promise<Set<string>> {
    const wanted = [...new Set(emails)];
    if (wanted.length === 0) return new Set();
    const rows = await manager.find(MarketingConsent, {
      select: { id: true, email: true, granted: true },
      where: { email: In(wanted) },
      order: { id: 'ASC' },
    });
    const newest = new Map(rows.map((row) => [row.email, row.granted]));
    const undecided = wanted.filter((email) => !newest.has(email));
    const customers = await this.customersAmong(manager, undecided);
    return new Set(wanted.filter((email) => newest.get(email) ?? customers.has(email)));
  }

  /** Addresses that placed an order not called off: their e-mail was obtained in a sale. */
  private async customersAmong(manager: EntityManager, emails: string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const orders = await manager.find(Order, {
      select: { id: true, email: true },
      where: { email: In(emails), status: Not('canceled') },
    });
    return new Set(orders.map((order) => normaliseEmail(order.email)));
  }
}
