import { describe, expect, it } from 'vitest';
import { bestLevel, mayManage, roleStanding, type Standing } from './role-level.js';

const admin: Standing = { isAdmin: true, level: null };
const adminWithRole: Standing = { isAdmin: true, level: 3 };
const level = (n: number | null): Standing => ({ isAdmin: false, level: n });

describe('mayManage', () => {
  it.each([
    ['an administrator, a level-1 user', true, admin, level(1)],
    ['an administrator, another administrator', true, admin, adminWithRole],
    ['an administrator holding a weak role, a level-1 role', true, adminWithRole, roleStanding(1)],
    ['level 2, an administrator', false, level(2), admin],
    ['level 1, an administrator holding a weak role', false, level(1), adminWithRole],
    ['level 2, level 1 (more powerful)', false, level(2), level(1)],
    ['level 2, level 2 (the same)', true, level(2), level(2)],
    ['level 2, level 3 (less powerful)', true, level(2), level(3)],
    ['level 2, a user without roles', true, level(2), level(null)],
    ['no roles, a user without roles', true, level(null), level(null)],
    ['no roles, a level-999 role', false, level(null), roleStanding(999)],
    ['no roles, a level-3 user', false, level(null), level(3)],
  ] as const)('%s → %s', (_label, expected, actor, target) => {
    expect(mayManage(actor, target)).toBe(expected);
  });
});

describe('bestLevel', () => {
  it.each([
    [[], null],
    [[3], 3],
    [[3, 1, 2], 1],
    [[5, 5], 5],
  ] as const)('of %j is %j', (levels, expected) => {
    expect(bestLevel(levels)).toBe(expected);
  });
});
