/** The shop's internal events. Plugins listen for these; commerce never imports a plugin. */
export const PLUGINS_AFTER_LOAD = 'plugins-after-load';
export const ORDER_STATUS_CHANGE = 'order-status-change';
/** After a place-order transaction committed, with `{ orderId, orderNumber }`. */
export const ORDER_PLACED = 'order-placed';
/** After a transaction that took a product's stock from 0 to more committed, with `{ productId }`. */
export const PRODUCT_BACK_IN_STOCK = 'product-back-in-stock';

/** After a refund's success committed, with `{ refundId, orderId, orderNumber }` (credit notes hook in here). */
export const ORDER_REFUNDED = 'order-refunded';

/** After a place-order transaction committed. */
export interface OrderPlaced {
  orderId: number;
  orderNumber: string;
}

/** After a refund's success committed. */
export interface OrderRefunded {
  refundId: number;
  orderId: number;
  orderNumber: string;
}

declare module '../common/domain-events' {
  interface DomainEventMap {
    [PLUGINS_AFTER_LOAD]: void;
    [ORDER_PLACED]: OrderPlaced;
    [PRODUCT_BACK_IN_STOCK]: { productId: number };
  }
}
