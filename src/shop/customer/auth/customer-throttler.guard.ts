import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ShopThrottlerGuard } from '../../../common/throttling/throttling.module';

/**
 * Counts per account rather than per address, for routes behind CustomerGuard (which sets `req.customer`):
 * a customer cannot reset the limit by changing networks, and customers behind one NAT do not share it.
 */
@Injectable()
export class CustomerThrottlerGuard extends ShopThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const customer = (req as unknown as Request).customer;
    return customer ? `customer:${customer.id}` : super.getTracker(req);
  }
}
