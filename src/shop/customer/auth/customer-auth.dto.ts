import { Transform } from 'class-transformer';
import { isEmail, IsBoolean, IsOptional, ValidateBy, ValidationArguments } from 'class-validator';
import { passwordProblem } from './password-policy';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Checkboxes post `on`; JSON clients send booleans. */
const checkbox = ({ value }: { value: unknown }) =>
  value === true || value === 'true' || value === 'on' || value === '1';

/*
 * One rule per field, each with one message that reads after the field's label ("Password is required"),
 * so forms can show it as a sentence and JSON clients get exactly one entry in `error.fields`.
 */

function missingOrNotText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return 'is required';
  return typeof value === 'string' ? undefined : 'must be text';
}

function textRule(name: string, problem: (value: unknown) => string | undefined) {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => problem(value) === undefined,
      defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'is not valid',
    },
  });
}

/** A non-empty string of at most `max` characters. */
const RequiredText = (max: number) =>
  textRule(
    'requiredText',
    (value) =>
      missingOrNotText(value) ?? ((value as string).length > max ? `must be at most ${max} characters` : undefined),
  );

/** Fits the 191-character column of `customers.email`. */
const EmailAddress = () =>
  textRule(
    'emailAddress',
    (value) =>
      missingOrNotText(value) ??
      ((value as string).length > 191 || !isEmail(value) ? 'must be an e-mail address' : undefined),
  );

/** The password policy of password-policy.ts. */
const AcceptablePassword = () =>
  textRule('acceptablePassword', (value) => missingOrNotText(value) ?? passwordProblem(value as string));

export class RegisterDto {
  @Transform(trim)
  @EmailAddress()
  email: string;

  @AcceptablePassword()
  password: string;

  @Transform(trim)
  @RequiredText(100)
  firstName: string;

  @Transform(trim)
  @RequiredText(100)
  lastName: string;
}

export class LoginDto {
  @Transform(trim)
  @RequiredText(191)
  loginName: string;

  @RequiredText(200)
  password: string;

  @IsOptional()
  @Transform(checkbox)
  @IsBoolean()
  rememberMe?: boolean;
}
