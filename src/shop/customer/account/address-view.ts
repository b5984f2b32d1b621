import { addressJson } from '../../../commerce/customers/address-book.service';
import { CustomerAddress } from '../../../commerce/customers/customer-address.entity';
import { addressLines } from '../../../commerce/orders/order-summary';

/** An address-book entry with the lines of a letter and the links of the address book page. */
export function addressView(address: CustomerAddress) {
  return {
    ...addressJson(address),
    lines: addressLines(address),
    editUrl: `/shop/account/address-book/${address.id}`,
    deleteUrl: `/shop/account/address-book/delete/${address.id}`,
  };
}
