import { Checkout1795431798886 } from './1795431798886-checkout';
import { Initial1763800000000 } from './1763800000000-initial';
import { Coupons1795335171932 } from './1795335171932-coupons';
import { CarrierAShipments1795456796992 } from './1795456796992-carrier-a-shipments';
import { Customers1795453312135 } from './1795453312135-customers';
import { ProductSearch1795335200000 } from './1795335200000-product-search';

/** Migrations in order; run at start-up and by `npm run cli -- migrations:run`. */
export const MIGRATIONS = [
  Initial1763800000000,
  Coupons1795335171932,
  ProductSearch1795335200000,
  Checkout1795431798886,
  Customers1795453312135,
  CarrierAShipments1795456796992,
];
