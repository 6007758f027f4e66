import type { Locale } from './locale.js';
import { formatMessage, localizeWith } from './message-format.js';
import { enUS, type MessageCatalogue, type MessageKey } from './messages-en-us.js';
import { zhCN } from './messages-zh-cn.js';

export type { MessageCatalogue, MessageKey };

/**
 * Both languages of the shared catalogue, for the server and the back office. The login and
 * learner pages load only the language they show (messages-en-us.ts, messages-zh-cn.ts, through
 * the web app's lib/use-locale-text.ts) and format with message-format.ts.
 */
export const messages = { 'zh-CN': zhCN, 'en-US': enUS } as const satisfies Record<Locale, MessageCatalogue>;

export function translate(locale: Locale, key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return formatMessage(locale, messages[locale], key, params);
}

/** A server message (English) in `locale`, where it is a catalogue entry; anything else as it came. */
export function localizeMessage(locale: Locale, text: string): string {
  return localizeWith(enUS, messages[locale], text);
}
