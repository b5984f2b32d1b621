import { CustomerAddress } from '../../../commerce/customers/customer-address.entity';
import { addressLines } from '../../../commerce/orders/order-summary';

/** An address-book entry as JSON and pages show it. */
export function addressJson(address: CustomerAddress) {
  return {
    id: address.id,
    firstName: address.firstName,
    lastName: address.lastName,
    street: address.street,
    city: address.city,
    zipCode: address.zipCode,
    country: address.country,
    phone: address.phone,
    company: address.company,
    isDefaultBilling: address.isDefaultBilling,
    isDefaultShipping: address.isDefaultShipping,
  };
}

/** The same, with the lines of a letter and the links of the address book page. */
export function addressView(address: CustomerAddress) {
  return {
    ...addressJson(address),
    lines: addressLines(address),
    editUrl: `/shop/account/address-book/${address.id}`,
    deleteUrl: `/shop/account/address-book/delete/${address.id}`,
  };
}
