import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { toMajor } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { LIKE_ESCAPE, likeContaining } from '../../database/like';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { AuditEntry } from '../audit/audit-entry.entity';
import { AuditLog, auditChanges } from '../audit/audit-log.service';
import { MarketingConsent } from '../marketing/marketing-consent.entity';
import { MarketingBasis, MarketingConsents } from '../marketing/marketing-consents.service';
import { NewsletterSubscriber } from '../marketing/newsletter-subscriber.entity';
import { OrderStatus } from '../orders/order-status.machine';
import { Order } from '../orders/order.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { CurrencyService } from '../stores/currency.service';
import { WishlistItem } from '../wishlists/wishlist-item.entity';
import { Wishlist } from '../wishlists/wishlist.entity';
import { AccountDeletionService } from './account-deletion.service';
import { CustomerAddress } from './customer-address.entity';
import { Customer } from './customer.entity';
import { PasswordResetService } from './password-reset.service';
import { PROVIDER_LABELS, SocialProvider } from './social-identity';

export const CUSTOMER_PAGE_SIZE = 50;

export const CUSTOMER_SORTS = ['name', 'email', 'registered', 'orders', 'spent'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

/** Orders whose money the shop has and keeps: what "amount spent" adds up (canceled and refunded ones do not count). */
const SPENT_STATUSES: OrderStatus[] = ['paid', 'processing', 'shipped', 'completed'];

/** The ORDER BY of each sort; the customer's id breaks ties so pages never overlap. */
const SORT_COLUMNS: Record<CustomerSort, string[]> = {
  name: ['customer.lastName', 'customer.firstName'],
  email: ['customer.email'],
  registered: ['customer.dateCreated'],
  orders: ['orders'],
  spent: ['spent'],
};

export interface CustomerFilter {
  /** Words that must each be part of the first name, last name or e-mail. */
  q?: string;
  sort: CustomerSort;
  direction: 'ASC' | 'DESC';
  page: number;
}

export interface CustomerRow {
  id: number;
  name: string;
  email: string;
  orders: number;
  /** Formatted, in the base currency. */
  spent: string;
  dateCreated: Date;
  blocked: boolean;
}

/** The customer screens of the control panel: list, detail, blocking, password-reset e-mails, GDPR export and erasure. */
@Injectable()
export class CustomerAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly currencies: CurrencyService,
    private readonly consents: MarketingConsents,
    private readonly deletion: AccountDeletionService,
    private readonly resets: PasswordResetService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * A page of live accounts with their order count and amount spent, in one grouped query sorted and paged by the
   * database. Amounts in other currencies count at today's rate against the base currency (orders keep no rate).
   */
  async list(filter: CustomerFilter): Promise<{ customers: CustomerRow[]; total: number; pages: number }> {
    const { base, factors } = await this.currencies.conversionToBase();
    const spentInBase = spentInBaseSql(factors);
    const query = this.dataSource
      .getRepository(Customer)
      .createQueryBuilder('customer')
      .where('customer.deletedAt IS NULL');
    const words = (filter.q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 5);
    words.forEach((word, index) => {
      const match = ['customer.firstName', 'customer.lastName', 'customer.email']
        .map((column) => `${column} LIKE :word${index} ${LIKE_ESCAPE}`)
        .join(' OR ');
      // Not lower-cased: LIKE ignores ASCII case on both databases, and SQLite would miss "Ľubica" for "ľubica".
      query.andWhere(`(${match})`, { [`word${index}`]: likeContaining(word) });
    });
    const total = await query.clone().getCount();
    query
      .leftJoin(Order, 'o', 'o.customerId = customer.id')
      .select([
        'customer.id AS id',
        'customer.firstName AS firstName',
        'customer.lastName AS lastName',
        'customer.email AS email',
        'customer.dateCreated AS dateCreated',
        'customer.blockedAt AS blockedAt',
      ])
      .addSelect('COUNT(o.id)', 'orders')
      .addSelect(`COALESCE(SUM(CASE WHEN o.status IN (:...spentStatuses) THEN ${spentInBase.sql} END), 0)`, 'spent')
      .setParameters({ ...spentInBase.parameters, spentStatuses: SPENT_STATUSES })
      // Every selected column, not just the key: MariaDB with ONLY_FULL_GROUP_BY wants them named.
      .groupBy('customer.id')
      .addGroupBy('customer.firstName')
      .addGroupBy('customer.lastName')
      .addGroupBy('customer.email')
      .addGroupBy('customer.dateCreated')
      .addGroupBy('customer.blockedAt');
    const [first, ...rest] = SORT_COLUMNS[filter.sort];
    query.orderBy(first, filter.direction);
    for (const column of rest) query.addOrderBy(column, filter.direction);
    query.addOrderBy('customer.id', filter.direction);
    const rows = await query
      .offset((filter.page - 1) * CUSTOMER_PAGE_SIZE)
      .limit(CUSTOMER_PAGE_SIZE)
      .getRawMany<{
        id: number;
        firstName: string;
        lastName: string;
        email: string;
        dateCreated: Date | string;
        blockedAt: number | string | null;
        orders: number | string;
        spent: number | string;
      }>();
    // A raw row's date is the driver's text on SQLite: read it as the entity would be.
    const dateColumn = this.dataSource.getMetadata(Customer).findColumnWithPropertyName('dateCreated')!;
    return {
      customers: rows.map((row) => ({
        id: Number(row.id),
        name: `${row.firstName} ${row.lastName}`,
        email: row.email,
        orders: Number(row.orders),
        spent: formatMoney(Math.round(Number(row.spent)), base),
        dateCreated: this.dataSource.driver.prepareHydratedValue(row.dateCreated, dateColumn) as Date,
        blocked: row.blockedAt !== null,
      })),
      total,
      pages: Math.max(1, Math.ceil(total / CUSTOMER_PAGE_SIZE)),
    };
  }

  /** Everything the detail page shows of a live account; 404 for an unknown or deleted one. */
  async detail(id: number) {
    const customer = await this.live(id);
    const [orders, addresses, wishlists, marketing, newsletter] = await Promise.all([
      this.orders(customer.id),
      this.dataSource.getRepository(CustomerAddress).find({ where: { customerId: customer.id }, order: { id: 'ASC' } }),
      this.wishlists(customer.id),
      this.consents.standing(customer.email),
      this.dataSource.getRepository(NewsletterSubscriber).findOneBy({ email: customer.email }),
    ]);
    const formatters = new Map<string, (minor: number) => string>();
    for (const code of new Set(orders.map((order) => order.currency))) {
      formatters.set(code, await this.currencies.formatter(code, 'en'));
    }
    return {
      customer: {
        id: customer.id,
        name: `${customer.firstName} ${customer.lastName}`,
        email: customer.email,
        username: customer.username,
        dateCreated: customer.dateCreated,
        emailVerifiedAt: customer.emailVerifiedAt,
        lastLoginAt: customer.lastLoginAt,
        blockedAt: customer.blockedAt,
        hasPassword: customer.passwordHash !== null,
        socialLogins: socialLogins(customer),
      },
      orders: orders.map((order) => ({ ...order, total: formatters.get(order.currency)!(order.total) })),
      addresses,
      wishlists,
      marketing: {
        basis: marketing.basis,
        label: MARKETING_LABELS[marketing.basis],
        since: marketing.record?.dateCreated,
      },
      newsletter: newsletter ? { status: newsletter.status, confirmedAt: newsletter.confirmedAt } : null,
    };
  }

  /** Blocks the account: no login is let in, and the raised `authVersion` ends every open session at its next request. */
  block(id: number, actor: string): Promise<Customer> {
    return this.setBlocked(id, true, actor);
  }

  /** Lets the account log in again; sessions ended by the block stay ended. */
  unblock(id: number, actor: string): Promise<Customer> {
    return this.setBlocked(id, false, actor);
  }

  /**
   * Mails the account the same reset link and code as "Forgotten password" (the job sends it; the hourly cap per
   * account applies). Staff never see or set the password.
   */
  async sendPasswordReset(id: number, actor: string): Promise<Customer> {
    const customer = await this.live(id);
    await this.runner.run(async (tx) => {
      await this.resets.requestIn(tx, customer.email);
      await this.audit.record(tx.manager, {
        actor,
        area: 'customer',
        action: 'password_reset_sent',
        subject: customer.id,
        subjectLabel: customer.email,
      });
    });
    return customer;
  }

  /**
   * The customer's personal data as one JSON document (GDPR Art. 15 and 20): profile, addresses, orders, wishlists,
   * marketing consents and newsletter subscription. Handing it out is recorded in the audit log.
   */
  async exportData(id: number, actor: string): Promise<{ customer: Customer; data: object }> {
    const customer = await this.live(id);
    const [orders, addresses, wishlists, consents, newsletter] = await Promise.all([
      this.dataSource.getRepository(Order).find({ where: { customerId: customer.id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(CustomerAddress).find({ where: { customerId: customer.id }, order: { id: 'ASC' } }),
      this.wishlists(customer.id),
      this.dataSource.getRepository(MarketingConsent).find({ where: { email: customer.email }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(NewsletterSubscriber).findOneBy({ email: customer.email }),
    ]);
    const decimals = new Map<string, number>();
    for (const code of new Set(orders.map((order) => order.currency))) {
      decimals.set(code, (await this.currencies.recorded(code)).decimals);
    }
    const data = {
      exportedAt: new Date().toISOString(),
      profile: {
        email: customer.email,
        username: customer.username,
        firstName: customer.firstName,
        lastName: customer.lastName,
        registeredAt: customer.dateCreated.toISOString(),
        emailVerifiedAt: isoOrNull(customer.emailVerifiedAt),
        lastLoginAt: isoOrNull(customer.lastLoginAt),
        blockedAt: isoOrNull(customer.blockedAt),
        hasPassword: customer.passwordHash !== null,
        socialLogins: socialLogins(customer),
      },
      addresses: addresses.map((address) => ({
        firstName: address.firstName,
        lastName: address.lastName,
        company: address.company,
        street: address.street,
        city: address.city,
        zipCode: address.zipCode,
        country: address.country,
        phone: address.phone,
        isDefaultBilling: address.isDefaultBilling,
        isDefaultShipping: address.isDefaultShipping,
      })),
      orders: orders.map((order) => ({
        number: order.number,
        reference: order.reference,
        placedAt: order.dateCreated.toISOString(),
        status: order.status,
        currency: order.currency,
        total: toMajor(order.total, decimals.get(order.currency)!),
        email: order.email,
        billingAddress: order.billingAddress,
        shippingAddress: order.shippingAddress,
        shippingMethod: order.shippingName || order.shippingMethod,
        paymentMethod: order.paymentName || order.paymentMethod,
        notes: order.notes,
      })),
      wishlists: wishlists.map((wishlist) => ({
        name: wishlist.name,
        items: wishlist.items.map(({ product, sku, qty }) => ({ product, sku, qty })),
      })),
      marketingConsents: consents.map((consent) => ({
        granted: consent.granted,
        source: consent.source,
        wording: consent.wording,
        at: consent.dateCreated.toISOString(),
      })),
      newsletter: newsletter
        ? { status: newsletter.status, confirmedAt: isoOrNull(newsletter.confirmedAt), firstName: newsletter.firstName }
        : null,
    };
    await this.runner.run(({ manager }) =>
      this.audit.record(manager, {
        actor,
        area: 'customer',
        action: 'exported',
        subject: customer.id,
        subjectLabel: customer.email,
      }),
    );
    return { customer, data };
  }

  /**
   * Erases the account as the customer's own deletion does (AccountDeletionService.erase): personal data goes,
   * orders stay anonymised for the books. The audit log then names the account by its id only, its earlier entries
   * too: an erasure that kept the address in the log would not be one.
   */
  async erase(id: number, actor: string): Promise<void> {
    await this.runner.run(async ({ manager }) => {
      const customer = await this.locked(manager, id);
      await this.deletion.erase(manager, customer);
      await manager.update(
        AuditEntry,
        { area: 'customer', subject: String(customer.id) },
        { subjectLabel: `Customer #${customer.id}` },
      );
      await this.audit.record(manager, {
        actor,
        area: 'customer',
        action: 'erased',
        subject: customer.id,
        subjectLabel: `Customer #${customer.id}`,
      });
    });
  }

  private setBlocked(id: number, blocked: boolean, actor: string): Promise<Customer> {
    return this.runner.run(async ({ manager }) => {
      const customer = await this.locked(manager, id);
      if ((customer.blockedAt !== null) === blocked) return customer;
      const change = blocked
        ? { blockedAt: Date.now(), authVersion: customer.authVersion + 1 }
        : { blockedAt: null, authVersion: customer.authVersion };
      await manager.update(Customer, { id: customer.id }, change);
      await this.audit.record(manager, {
        actor,
        area: 'customer',
        action: blocked ? 'blocked' : 'unblocked',
        subject: customer.id,
        subjectLabel: customer.email,
        changes: auditChanges({ blocked: !blocked }, { blocked }),
      });
      return Object.assign(customer, change);
    });
  }

  private async live(id: number): Promise<Customer> {
    const customer = await this.dataSource.getRepository(Customer).findOneBy({ id, deletedAt: IsNull() });
    if (!customer) throw AppError.notFound('Customer not found');
    return customer;
  }

  private async locked(manager: EntityManager, id: number): Promise<Customer> {
    const customer = await manager.findOne(Customer, { where: { id, deletedAt: IsNull() }, ...writeLock(manager) });
    if (!customer) throw AppError.notFound('Customer not found');
    return customer;
  }

  private orders(customerId: number) {
    return this.dataSource.getRepository(Order).find({
      select: { id: true, reference: true, dateCreated: true, status: true, currency: true, total: true },
      where: { customerId },
      order: { id: 'DESC' },
    });
  }

  /** The customer's wishlists with what each holds, named as the catalogue names it now. */
  private async wishlists(customerId: number) {
    const wishlists = await this.dataSource
      .getRepository(Wishlist)
      .find({ where: { customerId }, order: { isDefault: 'DESC', id: 'ASC' } });
    const items = wishlists.length
      ? await this.dataSource
          .getRepository(WishlistItem)
          .find({ where: { wishlistId: In(wishlists.map((w) => w.id)) }, order: { id: 'ASC' } })
      : [];
    const productIds = [...new Set(items.map((item) => item.productId))];
    const variantIds = [...new Set(items.map((item) => item.variantId).filter((variantId) => variantId > 0))];
    const [products, variants] = await Promise.all([
      productIds.length ? this.dataSource.getRepository(Product).findBy({ id: In(productIds) }) : [],
      variantIds.length ? this.dataSource.getRepository(ProductVariant).findBy({ id: In(variantIds) }) : [],
    ]);
    return wishlists.map((wishlist) => ({
      name: wishlist.name,
      items: items
        .filter((item) => item.wishlistId === wishlist.id)
        .map((item) => {
          const product = products.find((candidate) => candidate.id === item.productId);
          const variant = variants.find((candidate) => candidate.id === item.variantId);
          return {
            productId: item.productId,
            product: product?.name ?? `Product #${item.productId} (deleted)`,
            sku: variant?.sku ?? product?.sku ?? null,
            qty: item.qty,
          };
        }),
    }));
  }
}

/**
 * An SQL expression for one order's total in base-currency minor units, with its parameters: the factors of
 * CurrencyService.conversionToBase, so a currency with no rate counts as 0 here as on the dashboard.
 */
function spentInBaseSql(factors: Map<string, number>): { sql: string; parameters: Record<string, unknown> } {
  const parameters: Record<string, unknown> = {};
  const cases = [...factors].map(([code, factor], index) => {
    parameters[`currency${index}`] = code;
    parameters[`factor${index}`] = factor;
    return `WHEN :currency${index} THEN o.total * :factor${index}`;
  });
  return { sql: `CASE o.currency ${cases.join(' ')} ELSE 0 END`, parameters };
}

const MARKETING_LABELS: Record<MarketingBasis, string> = {
  consent: 'Consented to marketing e-mail',
  soft_opt_in: 'Existing customer, never objected (soft opt-in)',
  withdrawn: 'Withdrew consent or objected',
  none: 'No consent',
};

/** The social providers linked to the account, by their display names. */
function socialLogins(customer: Customer): string[] {
  return Object.keys(customer.socialIds ?? {}).map(
    (provider) => PROVIDER_LABELS[provider as SocialProvider] ?? provider,
  );
}

function isoOrNull(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}
