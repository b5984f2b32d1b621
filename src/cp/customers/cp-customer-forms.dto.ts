import { Equals, IsIn, IsOptional } from 'class-validator';
import { CUSTOMER_SORTS, CustomerSort } from '../../commerce/customers/customer-admin.service';
import { CpListQuery } from '../../common/cp-list.query';

/** `?q=&page=&sort=&dir=` of the customer list. */
export class CustomerListQuery extends CpListQuery {
  @IsOptional()
  @IsIn(CUSTOMER_SORTS)
  sort?: CustomerSort;

  @IsOptional()
  @IsIn(['asc', 'desc'])
  dir?: 'asc' | 'desc';
}

/** Erasing an account is confirmed by ticking the box on the confirmation page. */
export class EraseCustomerDto {
  @Equals('yes', { message: 'tick the box to confirm the erasure' })
  confirm: string;
}
