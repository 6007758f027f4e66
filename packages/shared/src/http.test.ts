import { describe, it, expect, expectTypeOf } from 'vitest';
import { z } from 'zod';
import {
  createTimeRangeSchema,
  errorBodySchema,
  ID_MAX,
  idSchema,
  idTextSchema,
  healthSchema,
  mapPage,
  withOutsideScope,
  pageOf,
  type Page,
  pageQuerySchema,
  queryFlagSchema,
  REQUIRED,
  sortableBy,
} from './http.js';

describe('REQUIRED', () => {
  const name = z.string(REQUIRED).trim().min(1, 'is required').max(5);

  it('says "is required" for a missing value', () => {
    expect(name.safeParse(undefined).error?.issues[0]?.message).toBe('is required');
    expect(name.safeParse(null).error?.issues[0]?.message).toBe('is required');
  });

  it('leaves the other checks their own messages', () => {
    expect(name.safeParse('far too long').error?.issues[0]?.message).toMatch(/<=5 characters/);
    expect(name.safeParse(5).error?.issues[0]?.message).toMatch(/expected string/);
  });
});

describe('pageQuerySchema', () => {
  it.each([
    ['defaults', {}, { page: 0, size: 10, sort: [] }],
    ['coerces numeric strings', { page: '2', size: '20' }, { page: 2, size: 20, sort: [] }],
    ['keeps numbers', { page: 3, size: 9999 }, { page: 3, size: 9999, sort: [] }],
    ['wraps a single sort', { sort: 'createTime,desc' }, { page: 0, size: 10, sort: ['createTime,desc'] }],
    ['keeps a sort array', { sort: ['name,asc', 'dept.id,desc'] }, { page: 0, size: 10, sort: ['name,asc', 'dept.id,desc'] }],
  ])('%s', (_label, input, expected) => {
    expect(pageQuerySchema.parse(input)).toEqual(expected);
  });

  it.each([
    ['page', { page: '-1' }],
    ['page', { page: -1 }],
    ['page', { page: 'abc' }],
    ['page', { page: '1.5' }],
    ['size', { size: '0' }],
    ['size', { size: '10000' }],
    ['size', { size: 'abc' }],
    ['sort', { sort: 'name' }],
    ['sort', { sort: 'name,up' }],
    ['sort', { sort: ['name,asc', 'name;drop'] }],
    ['sort', { sort: 5 }],
  ])('rejects %s in %j', (field, input) => {
    const result = pageQuerySchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });
});

describe('sortableBy', () => {
  const sort = sortableBy(['id', 'name']);

  it('parses allowed orders into pairs, in the order given', () => {
    expect(sort.parse(undefined)).toEqual([]);
    expect(sort.parse('id,desc')).toEqual([{ field: 'id', direction: 'desc' }]);
    expect(sort.parse(['name,asc', 'id,desc'])).toEqual([
      { field: 'name', direction: 'asc' },
      { field: 'id', direction: 'desc' },
    ]);
  });

  it('refuses a field it does not allow, naming the ones it does', () => {
    const result = sort.safeParse(['name,asc', 'password,desc']);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['cannot sort by password; use one of id, name']);
  });

  it('refuses a malformed order', () => {
    expect(sort.safeParse('name').success).toBe(false);
  });
});

describe('createTimeRangeSchema', () => {
  const start = new Date(2024, 0, 1, 0, 0, 0).getTime();
  const end = new Date(2024, 0, 31, 23, 59, 59).getTime();

  it('reads both ends as local times, the end reaching the last millisecond of its second', () => {
    expect(createTimeRangeSchema.parse(['2024-01-01 00:00:00', '2024-01-31 23:59:59'])).toEqual({ from: start, to: end + 999 });
    expect(createTimeRangeSchema.parse(['2024-01-01 00:00:00', '2024-01-01 00:00:00'])).toEqual({ from: start, to: start + 999 });
  });

  it.each([
    ['a single time', '2024-01-01 00:00:00', 'expected a start and an end time'],
    ['three times', ['2024-01-01 00:00:00', '2024-01-02 00:00:00', '2024-01-03 00:00:00'], 'expected a start and an end time'],
    ['a date without a time', ['2024-01-01', '2024-01-02 00:00:00'], "expected 'yyyy-MM-dd HH:mm:ss'"],
    ['an impossible date', ['2024-13-45 00:00:00', '2024-01-02 00:00:00'], 'is not a valid time'],
    ['an end before the start', ['2024-01-02 00:00:00', '2024-01-01 23:59:59'], 'the end is before the start'],
  ])('refuses %s', (_label, input, message) => {
    expect(createTimeRangeSchema.safeParse(input).error?.issues[0]?.message).toBe(message);
  });
});

describe('queryFlagSchema', () => {
  it.each([
    ['true', true],
    ['false', false],
  ])('%s', (input, expected) => {
    expect(queryFlagSchema.parse(input)).toBe(expected);
  });

  it('refuses anything else', () => {
    expect(queryFlagSchema.safeParse('1').success).toBe(false);
  });
});

describe('errorBodySchema', () => {
  it.each([
    [{ status: 404, message: 'not found', timestamp: 1700000000000 }, true],
    [{ status: 500, message: '', timestamp: 0 }, true],
    [{ status: 404.5, message: 'x', timestamp: 1 }, false],
    [{ status: '404', message: 'x', timestamp: 1 }, false],
    [{ status: 404, timestamp: 1 }, false],
    [{ status: 404, message: 'x' }, false],
    [{ status: 404, message: 'x', timestamp: 1.5 }, false],
    [null, false],
  ])('%j -> %s', (input, expected) => {
    expect(errorBodySchema.safeParse(input).success).toBe(expected);
  });
});

describe('pageOf', () => {
  const pageOfNames = pageOf(z.object({ name: z.string() }));

  it.each([
    [{ content: [], totalElements: 0 }, true],
    [{ content: [{ name: 'a' }], totalElements: 41 }, true],
    [{ content: [{ name: 1 }], totalElements: 1 }, false],
    [{ content: [], totalElements: -1 }, false],
    [{ content: [], totalElements: 1.5 }, false],
    [{ totalElements: 0 }, false],
  ])('%j -> %s', (input, expected) => {
    expect(pageOfNames.safeParse(input).success).toBe(expected);
  });

  it('describes a Page of its items', () => {
    expectTypeOf<z.output<typeof pageOfNames>>().toEqualTypeOf<Page<{ name: string }>>();
  });
});

describe('mapPage', () => {
  it('turns each row and keeps the total', () => {
    expect(mapPage({ content: [1, 2], totalElements: 41 }, (n) => `#${n}`)).toEqual({ content: ['#1', '#2'], totalElements: 41 });
  });

  it('keeps the count of rows outside the reader’s scope', () => {
    expect(mapPage({ content: [1], totalElements: 1, outsideScope: 3 }, String)).toEqual({ content: ['1'], totalElements: 1, outsideScope: 3 });
  });
});

describe('withOutsideScope', () => {
  it.each([
    [0, { content: [], totalElements: 0 }],
    [2, { content: [], totalElements: 0, outsideScope: 2 }],
  ])('says %i hidden rows only when there are any', (hidden, page) => {
    expect(withOutsideScope({ content: [], totalElements: 0 }, hidden)).toEqual(page);
  });
});

describe('healthSchema', () => {
  it.each([
    [{ status: 'UP', version: '0.1.0', uptimeSeconds: 12.5, database: 'sqlite' }, true],
    [{ status: 'UP', version: '0.1.0', uptimeSeconds: 0, database: 'postgres' }, true],
    [{ status: 'DOWN', version: '0.1.0', uptimeSeconds: 0, database: 'sqlite' }, false],
    [{ status: 'UP', version: '0.1.0', uptimeSeconds: 0, database: 'mysql' }, false],
  ])('%j -> %s', (input, expected) => {
    expect(healthSchema.safeParse(input).success).toBe(expected);
  });
});

describe('ids', () => {
  it.each([
    [1, true],
    [ID_MAX, true],
    [ID_MAX + 1, false],
    [2 ** 53 + 2, false],
    [0, false],
    [-1, false],
    [1.5, false],
  ])('in a body, %s is accepted: %s', (id, accepted) => {
    expect(idSchema.safeParse(id).success).toBe(accepted);
  });

  it.each([
    ['1', 1],
    ['2147483647', ID_MAX],
    ['2147483648', undefined],
    ['9007199254740993', undefined],
    ['abc', undefined],
    ['', undefined],
  ])('in a path or query, %j reads as %s', (text, id) => {
    const parsed = idTextSchema.safeParse(text);
    expect(parsed.success ? parsed.data : undefined).toBe(id);
  });
});
