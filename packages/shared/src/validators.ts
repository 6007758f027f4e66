import type { MessageKey } from './messages.js';

export interface FormValidator {
  readonly test: (value: string) => boolean;
  readonly messageKey: MessageKey;
}

// Required-ness is a separate rule in every form, so a format rule must not fail a blank field.
export function isEmptyValue(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}

const MAINLAND_MOBILE = /^1\d{10}$/;
const LANDLINE = /^0\d{2,3}-\d{7,8}$/;
const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^(?:${IPV4_OCTET}\\.){3}${IPV4_OCTET}$`);
const EMAIL_LOCAL_ATOM = "[\\w!#$%&'*+/=?^`{|}~-]+";
const EMAIL = new RegExp(
  `^${EMAIL_LOCAL_ATOM}(?:\\.${EMAIL_LOCAL_ATOM})*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$`,
);

function rule(messageKey: MessageKey, check: (value: string) => boolean): FormValidator {
  return { messageKey, test: (value) => isEmptyValue(value) || check(value) };
}

const matches = (pattern: RegExp) => (value: string) => pattern.test(value);

export const formValidators = {
  // URL schemes are case-insensitive (RFC 3986), so 'HTTPS:' is as external as 'https:'.
  externalLink: rule('validation.externalLink', matches(/^(?:https?|mailto|tel):/i)),
  username: rule('validation.username', (value) => ['admin', 'editor'].includes(value.trim())),
  // The regex demands an authority after '//'; URL.canParse then rejects what the regex cannot see (bad ports, '@' alone).
  url: rule(
    'validation.url',
    (value) => /^(?:https?|ftp):\/\/[^\s/?#]+\S*$/i.test(value) && URL.canParse(value),
  ),
  lowerCase: rule('validation.lowerCase', matches(/^[a-z]+$/)),
  upperCase: rule('validation.upperCase', matches(/^[A-Z]+$/)),
  alphabets: rule('validation.alphabets', matches(/^[A-Za-z]+$/)),
  email: rule('validation.email', matches(EMAIL)),
  mainlandMobile: rule('validation.mainlandMobile', matches(MAINLAND_MOBILE)),
  ip: rule('validation.ip', matches(IPV4)),
  phoneOrLandline: rule(
    'validation.phoneOrLandline',
    (value) => MAINLAND_MOBILE.test(value) || LANDLINE.test(value),
  ),
  landline: rule('validation.landline', matches(LANDLINE)),
  mobile: rule('validation.mobile', matches(/^1[3-9]\d{9}$/)),
  // 15-digit cards predate 1999; 18-digit ones may end in the check character X, which people type in either case.
  idCard: rule('validation.idCard', matches(/^(?:\d{15}|\d{17}[\dXx])$/)),
} as const satisfies Record<string, FormValidator>;

export type ValidatorName = keyof typeof formValidators;

export function validate(name: ValidatorName, value: string | null | undefined): true | MessageKey {
  const validator = formValidators[name];
  return validator.test(value ?? '') || validator.messageKey;
}
