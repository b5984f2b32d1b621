import { FieldProblem, problemText } from './field-problems';

/** NIST SP 800-63B: length over composition rules, and no password from the lists attackers try first. */
export const MIN_PASSWORD_LENGTH = 10;

/** The most common passwords of at least 10 characters in public breach lists (lower-cased). */
const COMMON_PASSWORDS = new Set([
  '1234567890',
  '0123456789',
  '1111111111',
  '0000000000',
  '1234512345',
  '123456789a',
  'a123456789',
  'qwertyuiop',
  'qwerty1234',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'password12',
  'password123',
  'password1234',
  'passw0rd123',
  'iloveyou12',
  'football12',
  'baseball12',
  'princess12',
  'welcome123',
  'sunshine12',
  'letmein123',
  'abc1234567',
  'abcdefghij',
  'zaq12wsxcde',
  'asdfghjkl1',
  'changeme123',
  'administrator',
  'qwertyuiop123',
  '1234567890a',
]);

const MAX_PASSWORD_LENGTH = 200;

/** What is wrong with a new password, or undefined when it will do. */
export function passwordFieldProblem(password: string): FieldProblem | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return { key: 'passwordTooShort', params: { min: MIN_PASSWORD_LENGTH } };
  if (password.length > MAX_PASSWORD_LENGTH) return { key: 'passwordTooLong', params: { max: MAX_PASSWORD_LENGTH } };
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return { key: 'passwordCommon' };
  return undefined;
}

/** The same, in English words, for an API answer's `error.fields`. */
export function passwordProblem(password: string): string | undefined {
  const problem = passwordFieldProblem(password);
  return problem && problemText(problem);
}
