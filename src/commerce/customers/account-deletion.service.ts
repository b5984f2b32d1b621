import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, Not } from 'typeorm';
import { Address, Cart } from '../carts/cart.entity';
import { CustomerAddress } from './customer-address.entity';
import { Customer } from './customer.entity';
import { EmailVerification } from './email-verification.entity';
import { NewsletterSubscriber } from '../marketing/newsletter-subscriber.entity';
import { MarketingConsent } from '../marketing/marketing-consent.entity';
import { PasswordReset } from './password-reset.entity';
import { WatchdogAlert } from '../marketing/watchdog-alert.entity';
import { WishlistItem } from '../wishlists/wishlist-item.entity';
import { Wishlist } from '../wishlists/wishlist.entity';
import { Order } from '../orders/order.entity';
import { TransactionRunner } from '../../database/transaction-runner';
import { accountChangedMeanwhile, assertCurrentPassword } from './current-password';

const DELETED_NAME = 'Deleted';

/** The e-mail a deleted account and its orders carry: unique per account, and never deliverable. */
export function deletedEmail(customerId: number): string {
  return `deleted-${customerId}@invalid`;
}

/** Deleting an account: by the customer, confirmed with their password, or by staff (CustomerAdmin.erase). */
@Injectable()
export class AccountDeletionService {
  constructor(private readonly runner: TransactionRunner) {}

  /** The customer's own deletion: the personal data goes in one transaction (see `erase`). */
  async delete(customer: Customer, password: string): Promise<void> {
    await assertCurrentPassword(customer, password, 'password');
    await this.runner.run(({ manager }) => this.erase(manager, customer));
  }

  /**
   * Removes the personal data in the caller's transaction (the customer's own deletion, or staff erasing the
   * account on request). The customer row stays (orders point at it) without a name, e-mail or any way to log
   * in, and its raised `authVersion` ends every open session. `customer` is the row as read: a change made to it
   * since is a 409 `account_changed`.
   */
  async erase(manager: EntityManager, customer: Customer): Promise<void> {
    const email = deletedEmail(customer.id);
    const deleted = await manager.update(
      Customer,
      { id: customer.id, authVersion: customer.authVersion, deletedAt: IsNull() },
      {
        email,
        username: null,
        passwordHash: null,
        firstName: DELETED_NAME,
        lastName: DELETED_NAME,
        socialIds: null,
        emailVerifiedAt: null,
        deletedAt: Date.now(),
        authVersion: customer.authVersion + 1,
      },
    );
    if (!deleted.affected) throw accountChangedMeanwhile();
    await manager.delete(CustomerAddress, { customerId: customer.id });
    const wishlists = await manager.find(Wishlist, { select: { id: true }, where: { customerId: customer.id } });
    if (wishlists.length > 0) {
      await manager.delete(WishlistItem, { wishlistId: In(wishlists.map((wishlist) => wishlist.id)) });
      await manager.delete(Wishlist, { customerId: customer.id });
    }
    await manager.delete(WatchdogAlert, { customerId: customer.id });
    await manager.delete(PasswordReset, { customerId: customer.id });
    await manager.delete(EmailVerification, { customerId: customer.id });
    await manager.delete(NewsletterSubscriber, { email: customer.email });
    await forgetConsents(manager, customer.email);
    await anonymiseOrders(manager, customer.id, email);
    await manager.update(
      Cart,
      { customerId: customer.id },
      { email: null, billingAddress: null, shippingAddress: null, notes: null, vatId: null, companyName: null },
    );
  }
}

/**
 * Deletes the address's consent rows but its newest one when that is a withdrawal: the shop must go on honouring
 * the "no" (GDPR Art. 21(3)), or a guest order under the same address would bring reminders back as soft opt-in.
 */
async function forgetConsents(manager: EntityManager, email: string): Promise<void> {
  const newest = await manager.findOne(MarketingConsent, { where: { email }, order: { id: 'DESC' } });
  const keep = newest && !newest.granted ? { id: Not(newest.id) } : {};
  await manager.delete(MarketingConsent, { email, ...keep });
}

/**
 * Orders are kept, not deleted: accounting and tax law require the shop to keep its sales records (amounts,
 * lines, VAT, dates) for years, and the statuses and the customer link keep the books and statistics whole.
 * What identifies the person goes: e-mail, names, street, phone and notes. City, postal code and country
 * stay because they decide which VAT applied; a company name and VAT id belong to a business, not a person.
 */
async function anonymiseOrders(manager: EntityManager, customerId: number, email: string): Promise<void> {
  const orders = await manager.find(Order, {
    select: { id: true, billingAddress: true, shippingAddress: true },
    where: { customerId },
  });
  for (const order of orders) {
    await manager.update(
      Order,
      { id: order.id },
      {
        email,
        notes: null,
        billingAddress: anonymisedAddress(order.billingAddress),
        shippingAddress: order.shippingAddress ? anonymisedAddress(order.shippingAddress) : null,
      },
    );
  }
}

function anonymisedAddress(address: Address): Address {
  return {
    firstName: DELETED_NAME,
    lastName: DELETED_NAME,
    street: DELETED_NAME,
    city: address.city,
    zipCode: address.zipCode,
    country: address.country,
    ...(address.company ? { company: address.company } : {}),
  };
}
