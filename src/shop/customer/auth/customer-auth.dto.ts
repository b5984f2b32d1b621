import { Transform } from 'class-transformer';
import { isEmail, IsBoolean, IsOptional, ValidateBy, ValidationArguments } from 'class-validator';
import { FieldProblem, problemText } from '../../../commerce/customers/field-problems';
import { passwordFieldProblem } from '../../../commerce/customers/password-policy';
import type { NewCustomer } from '../../../commerce/customers/customer-accounts.service';
import type { ConsentWording } from '../../../commerce/marketing/marketing-consents.service';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Checkboxes post `on`; JSON clients send booleans. */
const checkbox = ({ value }: { value: unknown }) =>
  value === true || value === 'true' || value === 'on' || value === '1';

/*
 * One rule per field, each with one problem that reads after the field's label ("Password is required"),
 * so forms can show it as a sentence and JSON clients get exactly one entry in `error.fields`.
 */

type ProblemOf = (value: unknown) => FieldProblem | undefined;

/** Each rule by its constraint name, so a form page can word a refusal in its own language (auth-forms.ts). */
export const FIELD_RULES = new Map<string, ProblemOf>();

function missingOrNotText(value: unknown): FieldProblem | undefined {
  if (value === undefined || value === null || value === '') return { key: 'required' };
  return typeof value === 'string' ? undefined : { key: 'notText' };
}

function textRule(name: string, problem: ProblemOf) {
  FIELD_RULES.set(name, problem);
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => problem(value) === undefined,
      defaultMessage: (args?: ValidationArguments) => problemText(problem(args?.value) ?? { key: 'invalid' }),
    },
  });
}

/** A non-empty string of at most `max` characters. */
const RequiredText = (max: number) =>
  textRule(
    `requiredText${max}`,
    (value) =>
      missingOrNotText(value) ?? ((value as string).length > max ? { key: 'tooLong', params: { max } } : undefined),
  );

/** Fits the 191-character column of `customers.email`. */
const EmailAddress = () =>
  textRule(
    'emailAddress',
    (value) =>
      missingOrNotText(value) ?? ((value as string).length > 191 || !isEmail(value) ? { key: 'email' } : undefined),
  );

/** The password policy of password-policy.ts. */
const AcceptablePassword = () =>
  textRule('acceptablePassword', (value) => missingOrNotText(value) ?? passwordFieldProblem(value as string));

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

  /** Consent to marketing e-mail (consent.marketing.v1); unticked unless the shopper ticks it. */
  @IsOptional()
  @Transform(checkbox)
  @IsBoolean()
  marketingConsent?: boolean;
}

/** The new account, with the consent wording recorded when the shopper ticked the box. */
export function newCustomer(dto: RegisterDto, consent: ConsentWording): NewCustomer {
  const { marketingConsent, ...account } = dto;
  return { ...account, marketing: marketingConsent ? consent : null };
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
