import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, EntityTarget, In, Like } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { TransactionRunner } from '../../database/transaction-runner';
import { lockEnabledAdmins } from '../staff/staff-admin.service';
import { AttributeValue } from '../attributes/attribute-value.entity';
import { Attribute } from '../attributes/attribute.entity';
import { ProductAttributeValue } from '../attributes/product-attribute-value.entity';
import { AuditLog } from '../audit/audit-log.service';
import { CartAdd } from '../carts/cart-add.entity';
import { Category } from '../categories/category.entity';
import { ProductCategory } from '../categories/product-category.entity';
import { CartLine } from '../carts/cart-line.entity';
import { Cart } from '../carts/cart.entity';
import { CouponUsage } from '../coupons/coupon-usage.entity';
import { Coupon } from '../coupons/coupon.entity';
import { CustomerAddress } from '../customers/customer-address.entity';
import { Customer } from '../customers/customer.entity';
import { EmailVerification } from '../customers/email-verification.entity';
import { PasswordReset } from '../customers/password-reset.entity';
import { DeliverySlotBooking } from '../delivery/delivery-slot-booking.entity';
import { GiftCardDesign } from '../gift-cards/gift-card-design.entity';
import { GiftCardMovement } from '../gift-cards/gift-card-movement.entity';
import { GiftCardProduct } from '../gift-cards/gift-card-product.entity';
import { GiftCard } from '../gift-cards/gift-card.entity';
import { SalesDocumentCounter } from '../invoices/sales-document-counter.entity';
import { SalesDocumentPdfPart } from '../invoices/sales-document-pdf-part.entity';
import { SalesDocument } from '../invoices/sales-document.entity';
import { AbandonedCartRecovery } from '../marketing/abandoned-cart-recovery.entity';
import { AbandonedCartReminder } from '../marketing/abandoned-cart-reminder.entity';
import { MarketingConsent } from '../marketing/marketing-consent.entity';
import { NewsletterSubscriber } from '../marketing/newsletter-subscriber.entity';
import { WatchdogAlert } from '../marketing/watchdog-alert.entity';
import { OrderHistory } from '../orders/order-history.entity';
import { OrderLine } from '../orders/order-line.entity';
import { Order } from '../orders/order.entity';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { PriceChange } from '../products/price-history.entity';
import { ProductRelation } from '../products/product-relation.entity';
import { ProductSafety } from '../products/product-safety.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { Refund, RefundLine } from '../refunds/refund.entity';
import { OrderReturn, OrderReturnHistory, OrderReturnLine } from '../returns/return.entity';
import { Shipment } from '../shipments/shipment.entity';
import { CpUser } from '../staff/cp-user.entity';
import { Wishlist } from '../wishlists/wishlist.entity';
import { WishlistItem } from '../wishlists/wishlist-item.entity';
import { Withdrawal, WithdrawalLine } from '../withdrawals/withdrawal.entity';

/** The demo seed's mark on its catalog: every product and variant SKU of demo-catalog.json starts with it. */
export const DEMO_SKU_PREFIX = 'DEMO-';

/** The admin the demo seed makes (with its public password, README). */
export const DEMO_ADMIN_EMAIL = 'admin@example.com';

/**
 * What a shop's trading leaves behind: orders and everything hanging off them, carts, customers and their
 * accounts, subscribers. A demo shop trades only against the sandboxes, so removing the demo empties these whole
 * ("start fresh"); children first, so a database with foreign keys accepts each step.
 */
const TRADING: Array<EntityTarget<object>> = [
  RefundLine,
  Refund,
  OrderReturnLine,
  OrderReturnHistory,
  OrderReturn,
  WithdrawalLine,
  Withdrawal,
  SalesDocumentPdfPart,
  SalesDocument,
  // Numbering starts again with the shop's first real invoice.
  SalesDocumentCounter,
  Shipment,
  PaymentTransaction,
  CouponUsage,
  GiftCardMovement,
  GiftCard,
  DeliverySlotBooking,
  OrderHistory,
  OrderLine,
  Order,
  AbandonedCartReminder,
  AbandonedCartRecovery,
  CartLine,
  CartAdd,
  Cart,
  WishlistItem,
  Wishlist,
  WatchdogAlert,
  MarketingConsent,
  NewsletterSubscriber,
  EmailVerification,
  PasswordReset,
  CustomerAddress,
  Customer,
];

/** What removing the demo takes away (or took away). */
export interface DemoContents {
  products: number;
  orders: number;
  customers: number;
  /** The demo admin's e-mail when it goes, null when there is none or it stays (it is the one removing the demo). */
  admin: string | null;
}

/**
 * Removes the demo in one transaction (`npm run cli -- demo:remove`, the CP's Store details): the demo catalog
 * (the products the seed marked with `DEMO-` SKUs, with their variants, relations, safety facts, price history and
 * gift-card design, and the categories and attribute values only they used), every order, cart and customer, and
 * the demo admin. The store, its settings, currencies, shipping methods, content pages and the owner's own products
 * (and the categories and values they use) stay.
 */
@Injectable()
export class DemoRemoval {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly audit: AuditLog,
  ) {}

  /** What `remove` would take away now; `keepCpUserId`: the CP user asking, who stays whoever they are. */
  contents(keepCpUserId?: number): Promise<DemoContents> {
    return this.count(this.dataSource.manager, keepCpUserId);
  }

  /**
   * Removes the demo and records it. Refused (409) once the demo catalog is gone: a shop that has removed it (or
   * never had it) trades for real, and its orders and customers are not the demo's. Refused (409) too when the only
   * enabled admin left would be the demo admin removed: nobody could open the CP any more.
   */
  async remove(actor: string, keepCpUserId?: number): Promise<DemoContents> {
    return this.runner.run(async ({ manager }) => {
      const removed = await this.count(manager, keepCpUserId);
      if (removed.products === 0) {
        throw new AppError(
          'no_demo',
          'There is no demo catalog here (any more): nothing was removed. Orders and customers stay.',
          409,
        );
      }
      if (removed.admin) {
        const admins = (await lockEnabledAdmins(manager)).filter((admin) => admin.email !== removed.admin);
        if (admins.length === 0) {
          throw new AppError(
            'last_admin',
            `${removed.admin} is the only enabled CP admin: make your own admin first (npm run cli -- setup).`,
            409,
          );
        }
        await manager.delete(CpUser, { email: removed.admin });
      }
      await this.removeDemoCatalog(manager);
      for (const entity of [...TRADING, ...this.pluginOrderTables(manager)]) {
        await manager.createQueryBuilder().delete().from(entity).execute();
      }
      await manager.createQueryBuilder().update(Coupon).set({ timesUsed: 0 }).execute();
      await this.audit.record(manager, {
        actor,
        area: 'store',
        action: 'demo-removed',
        subject: 'demo',
        subjectLabel: 'Demo shop data',
        // What went: counts that were not 0, and the admin's e-mail.
        changes: Object.fromEntries(
          Object.entries(removed)
            .filter(([, before]) => Boolean(before))
            .map(([what, before]) => [what, { from: before, to: typeof before === 'number' ? 0 : null }]),
        ),
      });
      return removed;
    });
  }

  private async count(manager: EntityManager, keepCpUserId?: number): Promise<DemoContents> {
    const admin = await manager.findOneBy(CpUser, { email: DEMO_ADMIN_EMAIL });
    return {
      products: (await this.demoProductIds(manager)).length,
      orders: await manager.count(Order),
      customers: await manager.count(Customer),
      admin: admin && admin.id !== keepCpUserId ? admin.email : null,
    };
  }

  /** The seed's products: `DEMO-` in capitals (LIKE ignores case on both databases; a shop's own `demo-…` stays). */
  private async demoProductIds(manager: EntityManager): Promise<number[]> {
    const candidates = await manager.find(Product, {
      select: { id: true, sku: true },
      where: { sku: Like(`${DEMO_SKU_PREFIX}%`) },
    });
    return candidates.filter(({ sku }) => sku.startsWith(DEMO_SKU_PREFIX)).map(({ id }) => id);
  }

  private async removeDemoCatalog(manager: EntityManager): Promise<void> {
    const ids = await this.demoProductIds(manager);
    if (ids.length === 0) return;
    // What the demo products were filed under and described by, read before they go (their rows go with them).
    const categoryIds = (
      await manager.find(ProductCategory, { select: { categoryId: true }, where: { productId: In(ids) } })
    ).map(({ categoryId }) => categoryId);
    const valueIds = (
      await manager.find(ProductAttributeValue, { select: { attributeValueId: true }, where: { productId: In(ids) } })
    ).map(({ attributeValueId }) => attributeValueId);
    const designIds = (await manager.findBy(GiftCardProduct, { productId: In(ids) })).map(({ designId }) => designId);
    await manager.delete(GiftCardProduct, { productId: In(ids) });
    const stillSold = (await manager.findBy(GiftCardProduct, { designId: In(designIds) })).map(
      ({ designId }) => designId,
    );
    const unused = designIds.filter((id) => !stillSold.includes(id));
    if (unused.length > 0) await manager.delete(GiftCardDesign, { id: In(unused) });
    await manager.delete(ProductRelation, { productId: In(ids) });
    await manager.delete(ProductRelation, { relatedProductId: In(ids) });
    for (const entity of [ProductSafety, PriceChange, ProductVariant, Product] as const) {
      await manager.delete(entity, entity === Product ? { id: In(ids) } : { productId: In(ids) });
    }
    await this.removeEmptiedCategories(manager, categoryIds);
    await this.removeUnusedValues(manager, [...new Set(valueIds)]);
  }

  /**
   * The demo's categories with their ancestors, deepest first, each one that now holds no product and no
   * sub-category: a category the owner filed a product under, or made one of their own in, stays.
   */
  private async removeEmptiedCategories(manager: EntityManager, categoryIds: number[]): Promise<void> {
    const categories = await manager.find(Category, { select: { id: true, parentId: true, path: true } });
    const byId = new Map(categories.map((category) => [category.id, category]));
    const candidates = new Set<number>();
    for (const id of new Set(categoryIds)) {
      let category = byId.get(id);
      while (category && !candidates.has(category.id)) {
        candidates.add(category.id);
        category = category.parentId === null ? undefined : byId.get(category.parentId);
      }
    }
    const deepestFirst = [...candidates]
      .map((id) => byId.get(id)!)
      .sort((a, b) => b.path.split('/').length - a.path.split('/').length);
    for (const category of deepestFirst) {
      const used =
        (await manager.exists(ProductCategory, { where: { categoryId: category.id } })) ||
        (await manager.exists(Category, { where: { parentId: category.id } }));
      if (!used) await manager.delete(Category, { id: category.id });
    }
  }

  /** The demo's attribute values no product has any more, then their attributes left without a value. */
  private async removeUnusedValues(manager: EntityManager, valueIds: number[]): Promise<void> {
    if (valueIds.length === 0) return;
    const stillUsed = new Set(
      (
        await manager.find(ProductAttributeValue, {
          select: { attributeValueId: true },
          where: { attributeValueId: In(valueIds) },
        })
      ).map(({ attributeValueId }) => attributeValueId),
    );
    const unused = valueIds.filter((id) => !stillUsed.has(id));
    if (unused.length === 0) return;
    const attributeIds = [
      ...new Set(
        (await manager.find(AttributeValue, { select: { attributeId: true }, where: { id: In(unused) } })).map(
          ({ attributeId }) => attributeId,
        ),
      ),
    ];
    await manager.delete(AttributeValue, { id: In(unused) });
    for (const attributeId of attributeIds) {
      if (!(await manager.exists(AttributeValue, { where: { attributeId } })))
        await manager.delete(Attribute, { id: attributeId });
    }
  }

  /** Plugins' tables keyed by an order (a carrier's parcels): they go with the orders, the plugin unnamed. */
  private pluginOrderTables(manager: EntityManager): Array<EntityTarget<object>> {
    return manager.connection.entityMetadatas
      .filter(
        (metadata) => metadata.findColumnWithPropertyName('orderId') && !TRADING.includes(metadata.target as never),
      )
      .map((metadata) => metadata.target as EntityTarget<object>);
  }
}
