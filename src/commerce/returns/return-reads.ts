import type { OrderLine } from '../orders/order-line.entity';
import type { Order } from '../orders/order.entity';
import type { OrderReturn, OrderReturnHistory } from './return.entity';

/** An order line and how many of it can still be returned. */
export interface ReturnableLine {
  line: OrderLine;
  left: number;
}

/** Whether the order can be returned now, until when, and what of it. */
export interface ReturnWindow {
  open: boolean;
  /** When the window closes (epoch ms); null while the order is not delivered, or returns are off. */
  until: number | null;
  lines: ReturnableLine[];
}

/** A return with its lines (named as ordered) and its history. */
export interface ReturnDetail {
  ret: OrderReturn;
  order: Order;
  lines: Array<{ line: OrderLine; qty: number }>;
  history: OrderReturnHistory[];
}
