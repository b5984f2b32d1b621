import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { SettingsService } from '../../config/settings.service';
import { Customer } from './customer.entity';

/** What a session keeps of its customer login (the session itself will do); undefined for a request without one. */
export interface SessionLogin {
  customerId?: number;
  /** The account's `authVersion` at login. */
  customerAuthVersion?: number;
}

/**
 * Who a session is logged in as: the customer while accounts are on, the account still exists, is not blocked and
 * its password has not changed since this login (`authVersion`). The one check behind the account guard,
 * private page sections, wishlists, carts and the orders a session places.
 */
@Injectable()
export class SessionCustomers {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
  ) {}

  async current(login: SessionLogin | undefined): Promise<Customer | null> {
    return this.settings.isOn('customerAccountsEnabled') ? this.standingLogin(login) : null;
  }

  /**
   * The account the session logged in to, while that login stands (the account exists and its password has not
   * changed since), whether accounts are on or not: what the session's cart belongs to.
   */
  async standingLogin(login: SessionLogin | undefined): Promise<Customer | null> {
    const customerId = login?.customerId;
    if (!customerId) return null;
    // Blocking raises authVersion too; the blockedAt check keeps a blocked account out whatever its sessions hold.
    const customer = await this.dataSource
      .getRepository(Customer)
      .findOneBy({ id: customerId, deletedAt: IsNull(), blockedAt: IsNull() });
    return customer && customer.authVersion === login.customerAuthVersion ? customer : null;
  }

  /** The id to record on carts and orders, or null for a guest (or a login that no longer stands). */
  async currentId(login: SessionLogin | undefined): Promise<number | null> {
    return (await this.current(login))?.id ?? null;
  }
}
