import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource, IsNull } from 'typeorm';
import { SettingsService } from '../../config/settings.service';
import { Customer } from './customer.entity';

/**
 * Who a session is logged in as: the customer while accounts are on, the account still exists and its
 * password has not changed since this login (`authVersion`). The one check behind the account guard,
 * private page sections, wishlists, carts and the orders a session places.
 */
@Injectable()
export class SessionCustomers {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
  ) {}

  async current(req: Request): Promise<Customer | null> {
    return this.settings.isOn('customerAccountsEnabled') ? this.standingLogin(req) : null;
  }

  /**
   * The account the session logged in to, while that login stands (the account exists and its password has not
   * changed since), whether accounts are on or not: what the session's cart belongs to.
   */
  async standingLogin(req: Request): Promise<Customer | null> {
    const customerId = req.session?.customerId;
    if (!customerId) return null;
    const customer = await this.dataSource.getRepository(Customer).findOneBy({ id: customerId, deletedAt: IsNull() });
    return customer && customer.authVersion === req.session.customerAuthVersion ? customer : null;
  }

  /** The id to record on carts and orders, or null for a guest (or a login that no longer stands). */
  async currentId(req: Request): Promise<number | null> {
    return (await this.current(req))?.id ?? null;
  }
}
