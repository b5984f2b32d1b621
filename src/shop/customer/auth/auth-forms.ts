import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { AppError, FieldErrors } from '../../../common/errors/app-error';
import { FALLBACK_LANGUAGE, translations } from '../../../web/i18n/translations';
import { FIELD_RULES } from './customer-auth.dto';
import { problemText } from '../../../commerce/customers/field-problems';

/**
 * Validates a browser form's fields as the global pipe validates JSON bodies (whitelisted, transformed), inside
 * the handler, so a refused form can go back to its page instead of wherever the Referer points. The refusal's
 * field messages are in the page's `language`.
 */
export async function validateForm<T extends object>(type: new () => T, form: unknown, language: string): Promise<T> {
  const fields = plainToInstance(type, form);
  const errors = await validate(fields, { whitelist: true });
  if (errors.length > 0) throw AppError.invalid(fieldProblems(errors, language));
  return fields;
}

function fieldProblems(errors: ValidationError[], language: string): FieldErrors {
  return Object.fromEntries(
    errors.map((error) => [
      error.property,
      Object.entries(error.constraints ?? {}).map(([name, english]) => {
        const problem = FIELD_RULES.get(name)?.(error.value);
        return problem ? problemText(problem, language) : english;
      }),
    ]),
  );
}

/**
 * An error as the flash message on the form's page, in the page language: field errors become sentences
 * ("Password is required."); another error is reworded by `customer.errors.<code>` where the language has it.
 */
export function formMessage(error: AppError, language: string): string {
  const strings = translations();
  if (error.code !== 'validation_failed' || !error.fields) {
    return strings.find(language, `customer.errors.${error.code}`) ?? error.message;
  }
  return Object.entries(error.fields)
    .map(([field, problems]) =>
      strings.t(language, 'customer.problems.sentence', {
        label:
          strings.find(language, `customer.fields.${field}`) ??
          strings.find(FALLBACK_LANGUAGE, `customer.fields.${field}`) ??
          field,
        problem: problems.join(', '),
      }),
    )
    .join(' ');
}
