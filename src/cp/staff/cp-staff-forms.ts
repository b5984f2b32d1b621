import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { StaffProfile } from '../../commerce/staff/staff-admin.service';
import { STAFF_ROLES } from '../../commerce/staff/staff-roles';

/** The staff form as posted: the invitation's (with `email`) and the edit form's. */
export class CpStaffFormDto {
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(191)
  name?: string;

  /** A checkbox (`on` when ticked); JSON clients may send a boolean. */
  @IsOptional()
  @IsIn(['on', 'true', 'false', true, false])
  admin?: string | boolean;

  /** Ticked checkboxes: one name arrives as a string, several as a list. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  permissions?: string[];

  /** A role's button: fill the form with its rights instead of saving. */
  @IsOptional()
  @IsIn(STAFF_ROLES.map((role) => role.key))
  role?: string;
}

export function staffProfileFromForm(form: CpStaffFormDto): StaffProfile {
  return {
    name: form.name ?? '',
    admin: form.admin === true || form.admin === 'on' || form.admin === 'true',
    permissions: form.permissions ?? [],
  };
}

export class CpStaffEnabledDto {
  @IsIn(['true', 'false', true, false])
  enabled: string | boolean;

  /** Disabling asks for this ticked box. */
  @IsOptional()
  @IsString()
  confirm?: string;
}

export class CpStaffConfirmDto {
  @IsOptional()
  @IsString()
  confirm?: string;
}

export class CpSetPasswordDto {
  @IsString()
  @MaxLength(200)
  password: string;

  @IsString()
  @MaxLength(200)
  passwordConfirmation: string;
}
