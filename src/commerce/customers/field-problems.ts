import { FALLBACK_LANGUAGE, translations } from '../../web/i18n/translations';

/**
 * What is wrong with a customer form field: a key under `customer.problems` and its placeholders. JSON clients
 * get the English text; a form page words it in the page language (shop/customer/auth/auth-forms.ts).
 */
export interface FieldProblem {
  key: string;
  params?: Record<string, unknown>;
}

/** The problem as it reads after the field's label ("is required"), in `language`. */
export function problemText(problem: FieldProblem, language = FALLBACK_LANGUAGE): string {
  return translations().t(language, `customer.problems.${problem.key}`, problem.params);
}
