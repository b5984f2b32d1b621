import { Module } from '@nestjs/common';
import { CategoryAdmin } from './categories/category-admin.service';
import { AttributeAdmin } from './attributes/attribute-admin.service';
import { CouponList } from './coupons/coupon-list.service';
import { GiftCardList } from './gift-cards/gift-card-list.service';
import { AbandonedCartsReport } from './marketing/abandoned-carts-report.service';
import { OrderAdmin } from './orders/order-admin.service';
import { OrderList } from './orders/order-list.service';
import { OrderMethodNames } from './orders/order-method-names';
import { ProductAdmin } from './products/product-admin.service';
import { ProductLifecycle } from './products/product-lifecycle.service';
import { ProductVariantAdmin } from './products/product-variant-admin.service';
import { ShippingAdmin } from './shipping/shipping-admin.service';
import { ShopStatistics } from './statistics/shop-statistics.service';

const ADMIN_SERVICES = [
  CategoryAdmin,
  AttributeAdmin,
  OrderAdmin,
  OrderList,
  OrderMethodNames,
  ProductAdmin,
  ProductLifecycle,
  ProductVariantAdmin,
  ShippingAdmin,
  CouponList,
  GiftCardList,
  AbandonedCartsReport,
  ShopStatistics,
];

/** Commerce as staff see and edit it: the lists, details and edits behind the control panel's screens. */
@Module({ providers: ADMIN_SERVICES, exports: ADMIN_SERVICES })
export class CommerceAdminModule {}
