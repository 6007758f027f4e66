import { pickLocale, type Locale } from '@cloud-classroom/shared/locale';
import { translate, type MessageKey } from '@cloud-classroom/shared/messages';
import type { FastifyRequest } from 'fastify';

export function requestLocale(request: FastifyRequest): Locale {
  return pickLocale(request.headers['accept-language']);
}

/** A message from the shared catalogue in the caller's language. */
export function t(request: FastifyRequest, key: MessageKey): string {
  return translate(requestLocale(request), key);
}
