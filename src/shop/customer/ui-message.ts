import type { Response } from 'express';
import { t } from '../../web/i18n/page-language';
import { FALLBACK_LANGUAGE, translations } from '../../web/i18n/translations';

/** A message to the shopper as a translation key (`account.addresses.saved`) and its parameters. */
export interface UiMessage {
  key: string;
  params?: Record<string, unknown>;
}

/** The message for a JSON body: always English, as the API's messages are part of its contract. */
export function apiText(message: UiMessage): string {
  return translations().t(FALLBACK_LANGUAGE, message.key, message.params);
}

/** The message for a flash on the next page: in the page's language. */
export function flashText(res: Response, message: UiMessage): string {
  return t(res, message.key, message.params);
}
