import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Not } from 'typeorm';
import { Address } from '../../../commerce/carts/cart.entity';
import { CustomerAddress } from '../../../commerce/customers/customer-address.entity';
import { Customer } from '../../../commerce/customers/customer.entity';
import { AppError } from '../../../common/errors/app-error';
import { writeLock } from '../../../database/locking';
import { TransactionRunner } from '../../../database/transaction-runner';

/** Enough for home, work and family; a bound so that one account cannot fill the table. */
export const MAX_ADDRESSES = 50;

export interface SaveAddress extends Address {
  /** The address to replace; none for a new one. */
  id?: number;
  isDefaultBilling?: boolean;
  isDefaultShipping?: boolean;
}

/** A customer's address book: at most one default billing and one default shipping address. */
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
          throw AppError.conflict(
            'address_book_full',
            `Your address book holds at most ${MAX_ADDRESSES} addresses. Delete one you no longer need.`,
          );
        }
        first = count === 0;
      }
      const address = await manager.save(
        manager.create(CustomerAddress, {
          id: input.id,
          customerId,
          firstName: input.firstName,
          lastName: input.lastName,
          street: input.street,
          city: input.city,
          zipCode: input.zipCode,
          country: input.country,
          phone: input.phone ?? null,
          company: input.company ?? null,
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

  async delete(customerId: number, id: number): Promise<void> {
    await this.runner.run(async ({ manager }) => {
      await lockCustomer(manager, customerId);
      const deleted = await manager.delete(CustomerAddress, { id, customerId });
      if (!deleted.affected) throw addressNotFound();
    });
  }
}

/** Changes to one address book apply one after another, so two saves cannot leave two defaults. */
async function lockCustomer(manager: EntityManager, customerId: number): Promise<void> {
  await manager.findOne(Customer, { select: { id: true }, where: { id: customerId }, ...writeLock(manager) });
}

function addressNotFound(): AppError {
  return AppError.notFound('We could not find this address in your address book.');
}
