import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldErrors } from './errors/app-error';

/** The global pipe: whitelisted, transformed DTOs; failures become a 400 with `error.fields`. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors) => AppError.invalid(fieldErrors(errors)),
  });
}

/** Flattens nested errors into `billingAddress.zipCode: [...]` entries. */
export function fieldErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) fields[path] = Object.values(error.constraints);
    Object.assign(fields, fieldErrors(error.children ?? [], path));
  }
  return fields;
}
