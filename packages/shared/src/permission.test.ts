import { describe, it, expect } from 'vitest';
import { PERMISSION_USAGE_ERROR, checkPermission, hasPermission } from './permission.js';

const notArrays = [['a string', 'admin'], ['null', null], ['undefined', undefined], ['an object', { roles: ['admin'] }], ['a number', 1]] as const;

const arrayCases = [
  ['a shared role', ['editor'], ['admin', 'editor'], true],
  ['one of several roles shared', ['viewer', 'editor'], ['editor'], true],
  ['no shared role', ['editor'], ['manager'], false],
  ['no roles at all', [], ['editor'], false],
  ['admin against anything', ['admin'], ['manager'], true],
  ['case differs', ['Editor'], ['editor'], false],
] as const;

describe('hasPermission', () => {
  it.each(arrayCases)('%s', (_label, userRoles, required, expected) => {
    expect(hasPermission(userRoles, required)).toBe(expected);
  });

  it.each([
    ['a user with roles', ['editor']],
    ['a user without roles', []],
  ] as const)('an empty list permits %s', (_label, userRoles) => {
    expect(hasPermission(userRoles, [])).toBe(true);
  });

  it.each(notArrays)('throws the usage error for %s', (_label, required) => {
    expect(() => hasPermission(['admin'], required)).toThrow(new Error(PERMISSION_USAGE_ERROR));
  });
});

describe('checkPermission', () => {
  it.each(arrayCases)('%s', (_label, userRoles, required, expected) => {
    expect(checkPermission(userRoles, required)).toBe(expected);
  });

  it.each([
    ...notArrays,
    ['an empty list', []],
  ] as const)('denies without throwing for %s', (_label, required) => {
    expect(checkPermission(['admin'], required)).toBe(false);
  });
});
