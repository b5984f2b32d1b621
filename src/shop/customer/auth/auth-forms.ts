import { AppError } from '../../../common/errors/app-error';
import { createValidationPipe } from '../../../common/validation';

const pipe = createValidationPipe();

/**
 * Validates a browser form's fields the way the global pipe validates JSON bodies (the same 400 AppError),
 * inside the handler, so a refused form can go back to its page instead of wherever the Referer points.
 */
export function validateForm<T>(type: new () => T, form: unknown): Promise<T> {
  return pipe.transform(form, { type: 'body', metatype: type }) as Promise<T>;
}

const LABELS: Record<string, string> = {
  loginName: 'E-mail or username',
  password: 'Password',
  email: 'E-mail',
  firstName: 'First name',
  lastName: 'Last name',
};

/** An error as the flash message on the form's page: field errors become sentences ("Password is required."). */
export function formMessage(error: AppError): string {
  if (error.code !== 'validation_failed' || !error.fields) return error.message;
  return Object.entries(error.fields)
    .map(([field, messages]) => `${LABELS[field] ?? field} ${messages.join(' and ')}.`)
    .join(' ');
}
