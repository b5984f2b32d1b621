import { BrowserTarget, FormAnswer, PageMessage } from '../../web/answers/answers';
import { FALLBACK_LANGUAGE, translations } from '../../web/i18n/translations';

/** The message for a JSON body: always English, as the API's messages are part of its contract. */
export function apiText(message: PageMessage): string {
  return translations().t(FALLBACK_LANGUAGE, message.key, message.params);
}

/**
 * Answers a request that did what it was asked (docs/http-contract.md): a browser form gets the message as a flash
 * (in the page language) and a 303 to `target`; scripts get `{ success: true, message, ...extra }` (English).
 */
export function changeDone(
  message: PageMessage,
  target: BrowserTarget,
  extra: Record<string, unknown> = {},
): FormAnswer {
  return new FormAnswer(message, target, () => ({ success: true, message: apiText(message), ...extra }));
}
