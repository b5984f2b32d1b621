import { Equals } from 'class-validator';

/** Erasing an account is confirmed by ticking the box on the confirmation page. */
export class EraseCustomerDto {
  @Equals('yes', { message: 'tick the box to confirm the erasure' })
  confirm: string;
}
