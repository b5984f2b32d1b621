import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CpConfirmationDto } from '../../common/cp-confirmation';
import { AppError } from '../../common/errors/app-error';
import { NewCoupon, parseIsoMoment } from '../../commerce/coupons/coupon-input';
import { CouponType } from '../../commerce/coupons/coupon.entity';
import { shopMoment } from '../../commerce/delivery/shop-calendar';

/**
 * The CP "new coupon" form as posted: every field a string, empty when left blank. CouponService does the
 * real validation, so the checks here only keep the input to a sane size.
 */
export class CpCouponFormDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  value?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  usageLimit?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  perCustomerLimit?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  minSubtotal?: string;

  @IsOptional()
  @IsString()
  @MaxLength(40)
  startsAt?: string;

  @IsOptional()
  @IsString()
  @MaxLength(40)
  endsAt?: string;

  /** A checkbox: present when ticked. */
  @IsOptional()
  @IsString()
  enabled?: string;
}

/** Disabling asks "I am sure"; enabling does not. */
export class CpCouponToggleDto extends CpConfirmationDto {
  @IsIn(['true', 'false'])
  enabled: 'true' | 'false';
}

/**
 * Form strings → NewCoupon; blank means "not set". A date or time without a zone is on the shop's wall clock
 * (`timeZone`), as the CP shows times; one with a zone (`Z`, `+02:00`) is that moment.
 */
export function newCouponFromForm(form: CpCouponFormDto, timeZone: string): NewCoupon {
  return {
    code: form.code ?? '',
    // The service checks the type and every number, and names each bad field.
    type: form.type as CouponType,
    value: Number(form.value),
    usageLimit: optionalNumber(form.usageLimit),
    perCustomerLimit: optionalNumber(form.perCustomerLimit),
    minSubtotal: optionalNumber(form.minSubtotal),
    startsAt: optionalMoment('startsAt', form.startsAt, timeZone),
    endsAt: optionalMoment('endsAt', form.endsAt, timeZone),
    enabled: form.enabled !== undefined,
  };
}

function optionalNumber(text: string | undefined): number | null {
  return text === undefined || text.trim() === '' ? null : Number(text);
}

function optionalMoment(field: string, text: string | undefined, timeZone: string): Date | null {
  if (text === undefined || text.trim() === '') return null;
  const typed = text.trim();
  const wallClock = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?$/.exec(typed);
  const local = wallClock && shopMoment(timeZone, wallClock[1] ? typed : `${typed}T00:00`);
  const date = wallClock ? (local === null ? null : new Date(local)) : parseIsoMoment(typed);
  if (!date) {
    throw AppError.invalid(
      { [field]: ['must be a date such as 2026-11-01 or 2026-11-01T08:00'] },
      `The coupon was not saved: ${field} "${text}" is not a date such as 2026-11-01 or 2026-11-01T08:00.`,
    );
  }
  return date;
}
