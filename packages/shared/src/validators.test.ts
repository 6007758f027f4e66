import { describe, it, expect } from 'vitest';
import { formValidators, isEmptyValue, validate, type ValidatorName } from './validators.js';

describe('isEmptyValue', () => {
  it.each([
    ['', true],
    [' ', true],
    ['\t\n ', true],
    [undefined, true],
    [null, true],
    ['0', false],
    [' a ', false],
  ] as const)('%j -> %s', (value, expected) => {
    expect(isEmptyValue(value)).toBe(expected);
  });
});

const cases: Record<ValidatorName, { valid: string[]; invalid: string[] }> = {
  externalLink: {
    valid: ['http://a.com', 'https://a.com/x', 'mailto:a@b.com', 'tel:13812345678', 'HTTPS://A.COM', 'http:'],
    invalid: ['/dashboard', 'www.a.com', 'ftp://a.com', ' https://a.com', 'javascript:alert(1)'],
  },
  username: {
    valid: ['admin', 'editor', ' admin ', 'editor\t'],
    invalid: ['Admin', 'root', 'admin1', 'ad min'],
  },
  url: {
    valid: [
      'http://example.com',
      'https://example.com/path?q=1#top',
      'ftp://files.example.com/a.txt',
      'http://localhost:8080',
      'https://192.168.0.1',
      'HTTP://EXAMPLE.COM',
    ],
    invalid: [
      'http://',
      'https://',
      'example.com',
      'www.example.com',
      'http:example.com',
      'http:///path',
      'http://@',
      'http://:80',
      'http://exa mple.com',
      'mailto:a@b.com',
      ' http://example.com',
    ],
  },
  lowerCase: { valid: ['abc', 'z'], invalid: ['Abc', 'ab1', 'ab c', 'é'] },
  upperCase: { valid: ['ABC', 'Z'], invalid: ['ABc', 'AB1', 'AB C'] },
  alphabets: { valid: ['abcXYZ', 'a'], invalid: ['abc1', 'a-b', 'a b', '中文'] },
  email: {
    valid: ['a@b.co', 'zhang.san@example.com', 'first+tag@mail.example.org', 'x_y-z@sub-domain.example.cn'],
    invalid: [
      'plain',
      '@example.com',
      'a@',
      'a@b',
      'a@b.c',
      'a@@b.com',
      'a@b@c.com',
      'a b@c.com',
      'a@b..com',
      'a@-b.com',
      '.a@b.com',
      'a.@b.com',
      'a@b.com ',
    ],
  },
  mainlandMobile: {
    valid: ['13812345678', '10000000000', '19999999999'],
    invalid: ['1381234567', '1381234567890', '23812345678', '138-1234-5678', ' 13812345678', '1381234567a'],
  },
  ip: {
    valid: ['0.0.0.0', '255.255.255.255', '192.168.1.1', '10.0.0.1', '1.2.3.4'],
    invalid: ['256.1.1.1', '1.1.1.256', '1.1.1', '1.1.1.1.1', '01.1.1.1', '1.1.1.00', '1..1.1', 'a.b.c.d', '1.1.1.1 ', '-1.1.1.1'],
  },
  phoneOrLandline: {
    valid: ['13812345678', '010-12345678', '0755-1234567', '021-1234567'],
    invalid: ['1381234567', '1381234567890', '01012345678', '010-123456', '010-123456789', '10-12345678', '0755-1234567-8'],
  },
  landline: {
    valid: ['010-1234567', '010-12345678', '0755-1234567', '0755-12345678'],
    invalid: ['13812345678', '0101234567', '10-1234567', '01-1234567', '01234-1234567', '010-123456', '010-123456789', '010 1234567'],
  },
  mobile: {
    valid: ['13812345678', '19912345678', '15000000000'],
    invalid: ['12812345678', '10812345678', '1381234567', '1381234567890', '23812345678', '13812345678 '],
  },
  idCard: {
    valid: ['110101900101123', '110101199001011234', '11010119900101123X', '11010119900101123x'],
    invalid: [
      '1101011990010112',
      '11010119900101123',
      '1101011990010112345',
      '11010119900101123Y',
      'X10101199001011234',
      '1101011990010112X4',
      '11010119900101123XX',
      '11010190010112X',
      ' 110101199001011234',
    ],
  },
};

describe.each(Object.entries(cases))('formValidators.%s', (name, { valid, invalid }) => {
  const validator = formValidators[name as ValidatorName];

  it.each(valid)('accepts %j', (value) => {
    expect(validator.test(value)).toBe(true);
    expect(validate(name as ValidatorName, value)).toBe(true);
  });

  it.each(invalid)('rejects %j', (value) => {
    expect(validator.test(value)).toBe(false);
    expect(validate(name as ValidatorName, value)).toBe(validator.messageKey);
  });

  it.each(['', '   ', undefined, null])('lets the empty value %j pass', (value) => {
    expect(validate(name as ValidatorName, value)).toBe(true);
  });
});

describe('validate', () => {
  it.each([
    ['ip', '192.168.1.1', true],
    ['ip', '256.1.1.1', 'validation.ip'],
    ['idCard', '11010119900101123x', true],
    ['idCard', '1101011990010112', 'validation.idCard'],
    ['mobile', '1381234567', 'validation.mobile'],
    ['phoneOrLandline', '0755-1234567', true],
    ['landline', '13812345678', 'validation.landline'],
    ['email', 'a@b', 'validation.email'],
  ] as const)('%s(%j) -> %j', (name, value, expected) => {
    expect(validate(name, value)).toBe(expected);
  });

  it('covers every validator in the table above', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(formValidators).sort());
  });
});
