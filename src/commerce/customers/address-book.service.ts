import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Not } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { Address } from '../carts/cart.entity';
import { CustomerAddress } from './customer-address.entity';
import { Customer } from './customer.entity';
import { customerErrors } from './customers-errors';

/** Enough for home, work and family; a bound so that one account cannot fill the table. */
export const MAX_ADDRESSES = 50;

export interface SaveAddress extends Address {
  /** The address to replace; none for a new one. */
  id?: number;
  isDefaultBilling?: boolean;
  isDefaultShipping?: boolean;
}

/** The fields that make an address; two entries alike in all of them are the same address. */
export const ADDRESS_FIELDS = [
  'firstName',
  'lastName',
  'street',
  'city',
  'zipCode',
  'country',
  'phone',
  'company',
] as const;

/**
 * A customer's address book: at most one default billing and one default shipping address. The account pages
 * keep it, checkout reads it and adds to it.
 */
@Injectable()
export class AddressBookService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {}

  list(customerId: number): Promise<CustomerAddress[]> {
    return this.dataSource.getRepository(CustomerAddress).find({ where: { customerId }, order: { id: 'ASC' } });
  }

  /** The customer's address with this id; another customer's is as unknown as a missing one. */
  async own(customerId: number, id: number): Promise<CustomerAddress> {
    const address = await this.dataSource.getRepository(CustomerAddress).findOneBy({ id, customerId });
    if (!address) throw addressNotFound();
    return address;
  }

  /** Creates or replaces an address; the first one becomes both defaults, a new default clears the old one. */
  save(customerId: number, input: SaveAddress): Promise<CustomerAddress> {
    return this.runner.run(async ({ manager }) => {
      await lockCustomer(manager, customerId);
      let first = false;
      if (input.id) {
        if (!(await manager.existsBy(CustomerAddress, { id: input.id, customerId }))) throw addressNotFound();
      } else {
        const count = await manager.countBy(CustomerAddress, { customerId });
        if (count >= MAX_ADDRESSES) {
          throw customerErrors.address_book_full({ max: MAX_ADDRESSES });
        }
        first = count === 0;
      }
      const address = await manager.save(
        manager.create(CustomerAddress, {
          ...addressFields(input),
          id: input.id,
          customerId,
          isDefaultBilling: input.isDefaultBilling === true || first,
          isDefaultShipping: input.isDefaultShipping === true || first,
        }),
      );
      const others = { customerId, id: Not(address.id) };
      if (address.isDefaultBilling) {
        await manager.update(CustomerAddress, { ...others, isDefaultBilling: true }, { isDefaultBilling: false });
      }
      if (address.isDefaultShipping) {
        await manager.update(CustomerAddress, { ...others, isDefaultShipping: true }, { isDefaultShipping: false });
      }
      return address;
    });
  }

  /**
   * Checkout's "save this address to my address book", in the caller's transaction (place-order): adds the
   * order's billing address and its own shipping address (null: the billing one) unless the book already has
   * them. Each becomes the default of its kind while the book has none. A full book takes nothing more: the order
   * goes through all the same.
   */
  async addFromCheckout(
    manager: EntityManager,
    customerId: number,
    billing: Address,
    shipping: Address | null,
  ): Promise<void> {
    await lockCustomer(manager, customerId);
    const book = await manager.find(CustomerAddress, { where: { customerId }, order: { id: 'ASC' } });
    let hasBilling = book.some((entry) => entry.isDefaultBilling);
    let hasShipping = book.some((entry) => entry.isDefaultShipping);
    const roles = shipping
      ? [
          { address: billing, billing: true, shipping: false },
          { address: shipping, billing: false, shipping: true },
        ]
      : [{ address: billing, billing: true, shipping: true }];
    for (const role of roles) {
      if (book.length >= MAX_ADDRESSES || book.some((entry) => sameAddress(entry, role.address))) continue;
      const entry = await manager.save(
        manager.create(CustomerAddress, {
          ...addressFields(role.address),
          customerId,
          isDefaultBilling: role.billing && !hasBilling,
          isDefaultShipping: role.shipping && !hasShipping,
        }),
      );
      hasBilling ||= entry.isDefaultBilling;
      hasShipping ||= entry.isDefaultShipping;
      book.push(entry);
    }
  }

  async delete(customerId: number, id: number): Promise<void> {
    await this.runner.run(async ({ manager }) => {
      await lockCustomer(manager, customerId);
      const deleted = await manager.delete(CustomerAddress, { id, customerId });
      if (!deleted.affected) throw addressNotFound();
    });
  }
}

/** An address-book entry as JSON shows it: the Address fields (docs/http-contract.md), its id and which default it is. */
export function addressJson(address: CustomerAddress) {
  const { isDefaultBilling, isDefaultShipping } = address;
  return { id: address.id, ...addressFields(address), isDefaultBilling, isDefaultShipping };
}

/** An entry (or an address) as checkout's Address (what a cart holds): optional fields left out when empty. */
export function asAddress(entry: CustomerAddress | Address): Address {
  const { phone, company, ...required } = addressFields(entry);
  return { ...required, ...(phone && { phone }), ...(company && { company }) };
}

export function addressNotFound(): AppError {
  return AppError.notFound('We could not find this address in your address book.');
}

/** The Address fields of an entry or an address, a missing optional field as null (as the book stores it). */
function addressFields(address: Address | CustomerAddress) {
  const { firstName, lastName, street, city, zipCode, country } = address;
  return {
    firstName,
    lastName,
    street,
    city,
    zipCode,
    country,
    phone: address.phone ?? null,
    company: address.company ?? null,
  };
}

/** Field by field, a missing optional field equal to an empty one. */
export function sameAddress(entry: CustomerAddress | Address, address: Address): boolean {
  return ADDRESS_FIELDS.every((field) => (entry[field] ?? '') === (address[field] ?? ''));
}

/** Changes to one address book apply one after another, so two saves cannot leave two defaults. */
async function lockCustomer(manager: EntityManager, customerId: number): Promise<void> {
  await manager.findOne(Customer, { select: { id: true }, where: { id: customerId }, ...writeLock(manager) });
}
