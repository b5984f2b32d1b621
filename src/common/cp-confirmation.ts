import { IsOptional, IsString, MaxLength } from 'class-validator';
import { AppError } from './errors/app-error';

/**
 * The "I am sure" box of a destructive CP form (views/partials/cp-confirm.hbs). A form DTO extends this class, or a
 * handler without other fields takes it as its body.
 */
export class CpConfirmationDto {
  @IsOptional()
  @IsString()
  @MaxLength(10)
  confirm?: string;
}

/**
 * Refuses a destructive CP action whose form came without the ticked box: no JavaScript is needed to ask, and a post
 * from anywhere else (a stale tab, a script) changes nothing. The handler's `@RefusedGoesTo` flashes `what` back.
 */
export function requireConfirmation(body: CpConfirmationDto, what: string): void {
  if (body.confirm === 'yes' || body.confirm === 'on' || body.confirm === 'true') return;
  throw AppError.invalid(
    { confirm: ['tick "I am sure" to confirm'] },
    `${what} was not done: tick "I am sure" to confirm it.`,
  );
}
