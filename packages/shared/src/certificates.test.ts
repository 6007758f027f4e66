import { describe, expect, it } from 'vitest';
import {
  addMonthsToDate,
  calendarDateOf,
  certificateFieldText,
  certificateLayoutSchema,
  certificateNumberPatternSchema,
  certificateNumberSchema,
  certificateSnapshotSchema,
  certificateStatusAt,
  formatCalendarDate,
  formatCertificateNumber,
  maskHolderName,
  type CertificateField,
} from './certificates.js';

// Local times, as the numbers take their dates in the server's zone: the tests pass in any zone.
const jan5 = new Date(2025, 0, 5, 9, 30);
const dec31 = new Date(2031, 11, 31, 23, 59);

describe('formatCertificateNumber', () => {
  it.each([
    ['CC-{yyyy}-{seq:6}', jan5, 1, 'CC-2025-000001'],
    ['CC-{yyyy}-{seq:6}', jan5, 123456, 'CC-2025-123456'],
    ['CC-{yyyy}-{seq:6}', jan5, 1234567, 'CC-2025-1234567'],
    ['{yy}{MM}{dd}-{seq:4}', jan5, 42, '250105-0042'],
    ['{yy}{MM}{dd}-{seq:4}', dec31, 7, '311231-0007'],
    ['{seq:1}', jan5, 9, '9'],
    ['培训{yyyy}_{MM}.{seq:3}#A', jan5, 5, '培训2025_01.005#A'],
    ['{seq:12}', jan5, 1, '000000000001'],
  ])('%s on %s, sequence %i → %s', (pattern, issuedAt, seq, expected) => {
    expect(formatCertificateNumber(pattern, issuedAt, seq)).toBe(expected);
  });

  it('takes epoch milliseconds as well as a Date', () => {
    expect(formatCertificateNumber('X{yyyy}{MM}{dd}{seq:2}', jan5.getTime(), 3)).toBe('X2025010503');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the sequence %s', (seq) => {
    expect(() => formatCertificateNumber('CC-{seq:6}', jan5, seq)).toThrow(/not a positive integer/);
  });

  it('refuses a pattern the schema refuses, naming it', () => {
    expect(() => formatCertificateNumber('CC-{yyyy}', jan5, 1)).toThrow('certificate number pattern "CC-{yyyy}" needs a sequence, such as {seq:6}');
  });
});

describe('certificateNumberPatternSchema', () => {
  it.each(['CC-{yyyy}-{seq:6}', '{yy}{MM}{dd}{seq:4}', '  CERT.{seq:8}  '])('takes %s', (pattern) => {
    expect(certificateNumberPatternSchema.safeParse(pattern).success).toBe(true);
  });

  it.each([
    ['', 'is required'],
    ['CC-{yyyy}', 'needs a sequence, such as {seq:6}'],
    ['{seq:3}-{seq:3}', 'may hold only one {seq:N}'],
    ['CC-{seq:0}', '{seq:0}: the sequence takes 1 to 12 digits'],
    ['CC-{seq:13}', '{seq:13}: the sequence takes 1 to 12 digits'],
    ['CC-{seq}', 'unknown placeholder {seq}; use {yyyy}, {yy}, {MM}, {dd} or {seq:N}'],
    ['CC-{YYYY}-{seq:6}', 'unknown placeholder {YYYY}; use {yyyy}, {yy}, {MM}, {dd} or {seq:N}'],
    ['CC-{yyyy-{seq:6}', 'unknown placeholder {yyyy-{seq:6}; use {yyyy}, {yy}, {MM}, {dd} or {seq:N}'],
    ['CC-{seq:6', "has a '{' without its '}' at position 4"],
    ['CC}-{seq:6}', "has a '}' without its '{' at position 3"],
    ['CC {seq:6}', "may hold letters, digits, '-', '_', '.' and '#' besides placeholders, not ' '"],
    ['CC/{seq:6}', "may hold letters, digits, '-', '_', '.' and '#' besides placeholders, not '/'"],
  ])('refuses %j: %s', (pattern, message) => {
    const result = certificateNumberPatternSchema.safeParse(pattern);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });

  it('names the field when part of a larger schema', () => {
    const result = certificateLayoutSchema.safeParse({ fields: [{ kind: 'issuedOn', x: 0, y: 0, width: 50, fontSize: 12, dateFormat: '{YYYY}' }] });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['fields', 0, 'dateFormat'], message: 'unknown placeholder {YYYY}; use {yyyy}, {yy}, {MM} or {dd}' }),
    ]);
  });

  it('refuses a date format without a placeholder: it would print the same text on every certificate', () => {
    const result = certificateLayoutSchema.safeParse({ fields: [{ kind: 'issuedOn', x: 0, y: 0, width: 50, fontSize: 12, dateFormat: 'yyyy年M月d日' }] });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['fields', 0, 'dateFormat'], message: 'has no placeholder; use {yyyy}, {yy}, {MM} or {dd}' }),
    ]);
  });
});

describe('certificateNumberSchema (any number, imported ones included)', () => {
  it.each([
    ['  2019/001  ', true],
    ['旧证-001', true],
    ['', false],
    ['a\u0007b', false],
    ['x'.repeat(65), false],
  ])('%j → %s', (number, ok) => {
    expect(certificateNumberSchema.safeParse(number).success).toBe(ok);
  });
});

describe('maskHolderName', () => {
  it.each([
    ['张伟', '张*'],
    ['王小明', '王*明'],
    ['欧阳小明', '欧**明'],
    ['李', '*'],
    ['  张伟 ', '张*'],
    ['阿依古丽·买买提', '阿**丽·买*提'],
    ['𠮷野家', '𠮷*家'],
    ['Zhang Wei', 'Z**** W**'],
    ["Mary-Jane O'Neil", "M***-J*** O'N***"],
    ['John F. Kennedy', 'J*** F. K******'],
    ['Ab', 'A*'],
    ['张伟 Wei Zhang', '张* W** Z****'],
  ])('%s → %s', (name, masked) => {
    expect(maskHolderName(name)).toBe(masked);
  });

  it('never shows a whole name of two or more letters', () => {
    for (const name of ['张伟', 'Li', 'Wei', '王小明', 'Zhang Wei']) expect(maskHolderName(name)).not.toContain(name);
  });
});

describe('certificateStatusAt', () => {
  const at = 1_000_000;
  const plain = { expiresAt: null, revokedAt: null, supersededAt: null };
  it.each([
    ['never expires', plain, 'valid'],
    ['expires later', { ...plain, expiresAt: at + 1 }, 'valid'],
    ['expires at this very moment', { ...plain, expiresAt: at }, 'expired'],
    ['expired before', { ...plain, expiresAt: at - 1 }, 'expired'],
    ['revoked before', { ...plain, revokedAt: at - 1 }, 'revoked'],
    ['revoked later', { ...plain, revokedAt: at + 1 }, 'valid'],
    ['revoked after it expired', { ...plain, expiresAt: at - 10, revokedAt: at - 1 }, 'revoked'],
    ['superseded', { ...plain, supersededAt: at - 1 }, 'superseded'],
    ['superseded later, expired now', { ...plain, supersededAt: at + 1, expiresAt: at - 1 }, 'expired'],
    ['superseded and expired', { ...plain, supersededAt: at - 5, expiresAt: at - 1 }, 'superseded'],
    ['superseded, then revoked', { ...plain, supersededAt: at - 5, revokedAt: at - 1 }, 'revoked'],
  ] as const)('%s → %s', (_, lifecycle, status) => {
    expect(certificateStatusAt(lifecycle, at)).toBe(status);
  });
});

describe('certificateLayoutSchema', () => {
  it('defaults to a white A4 landscape page and fills each field’s defaults', () => {
    const layout = certificateLayoutSchema.parse({ fields: [{ kind: 'holderName', x: 20, y: 80, width: 257, fontSize: 36, color: '#AA0000' }] });
    expect(layout).toEqual({
      pageSize: 'A4',
      orientation: 'landscape',
      backgroundImage: null,
      fields: [{ kind: 'holderName', x: 20, y: 80, width: 257, fontSize: 36, color: '#aa0000', align: 'left', bold: false, prefix: '', suffix: '', dateFormat: '{yyyy}-{MM}-{dd}' }],
    });
  });

  it.each([
    // A4 landscape is 297 × 210 mm.
    [{ kind: 'title', x: 250, y: 10, width: 50, fontSize: 12 }, ['fields', 0, 'x'], "runs off the page's right edge (297 mm wide)"],
    [{ kind: 'qrCode', x: 10, y: 180, size: 40 }, ['fields', 0, 'y'], "runs off the page's bottom edge (210 mm high)"],
    [{ kind: 'title', x: 0, y: 0, width: 50, fontSize: 12, color: 'red' }, ['fields', 0, 'color'], "expected a colour as '#rrggbb'"],
    [{ kind: 'freeText', x: 0, y: 0, width: 50, fontSize: 12, text: '  ' }, ['fields', 0, 'text'], 'is required'],
    [{ kind: 'qrCode', x: 0, y: 0, size: 10 }, ['fields', 0, 'size'], 'Too small: expected number to be >=15'],
  ])('refuses %j at %j', (field, path, message) => {
    const result = certificateLayoutSchema.safeParse({ fields: [field] });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path, message })]);
  });

  it('measures a portrait page the other way round', () => {
    const field = { kind: 'qrCode', x: 10, y: 240, size: 40 };
    expect(certificateLayoutSchema.safeParse({ fields: [field] }).success).toBe(false);
    expect(certificateLayoutSchema.safeParse({ orientation: 'portrait', fields: [field] }).success).toBe(true);
  });

  it.each([
    ['cert-backgrounds/2025/a1b2.png', true],
    ['cert-backgrounds/x.jpeg', true],
    ['cert-backgrounds/../users.db', false],
    ['question-images/x.png', false],
    ['cert-backgrounds/x.svg', false],
  ])('background %s → %s', (key, ok) => {
    expect(certificateLayoutSchema.safeParse({ backgroundImage: key }).success).toBe(ok);
  });
});

describe('certificateSnapshotSchema and the printed text', () => {
  const snapshot = certificateSnapshotSchema.parse({
    holderName: ' 张伟 ',
    title: '安全生产培训',
    score: '',
    issuedOn: '2025-01-05',
    expiresOn: '2027-01-05',
    number: 'CC-2025-000001',
  });

  it('keeps the values as printed, an empty score as none', () => {
    expect(snapshot).toEqual({ holderName: '张伟', title: '安全生产培训', score: null, issuedOn: '2025-01-05', expiresOn: '2027-01-05', number: 'CC-2025-000001' });
  });

  it.each([
    [{ issuedOn: '2025-02-30' }, ['issuedOn'], 'is not a date'],
    [{ issuedOn: '2025-1-5' }, ['issuedOn'], "expected 'yyyy-MM-dd'"],
    [{ expiresOn: '2025-01-05' }, ['expiresOn'], 'is not after the issue date'],
  ])('refuses %j', (change, path, message) => {
    const result = certificateSnapshotSchema.safeParse({ ...snapshot, ...change });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path, message })]);
  });

  const field = (change: Partial<CertificateField>) =>
    certificateLayoutSchema.parse({ fields: [{ kind: 'holderName', x: 0, y: 0, width: 100, fontSize: 12, ...change }] }).fields[0] as Extract<
      CertificateField,
      { kind: 'holderName' }
    >;

  it.each([
    [{ kind: 'holderName' }, '张伟'],
    [{ kind: 'expiresOn', prefix: '有效期至 ', dateFormat: '{yyyy}年{MM}月{dd}日' }, '有效期至 2027年01月05日'],
    [{ kind: 'issuedOn', dateFormat: '{dd}/{MM}/{yy}' }, '05/01/25'],
    [{ kind: 'score', prefix: 'Score: ' }, ''],
  ] as const)('%j prints %j', (change, text) => {
    expect(certificateFieldText(field(change as Partial<CertificateField>), snapshot)).toBe(text);
  });

  it('takes a moment’s calendar date in the server’s zone, the same day its number shows', () => {
    expect(calendarDateOf(jan5)).toBe('2025-01-05');
    expect(calendarDateOf(dec31.getTime())).toBe('2031-12-31');
    expect(formatCertificateNumber('{yyyy}-{MM}-{dd}.{seq:1}', dec31, 1)).toBe(`${calendarDateOf(dec31)}.1`);
  });

  it('formats a calendar date', () => {
    expect(formatCalendarDate('2031-12-31', '{yy}.{MM}.{dd} ({yyyy})')).toBe('31.12.31 (2031)');
  });
});

describe('addMonthsToDate', () => {
  it.each([
    ['2025-01-05', 24, '2027-01-05'],
    ['2025-01-31', 1, '2025-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2025-11-30', 3, '2026-02-28'],
    ['2025-12-15', 1, '2026-01-15'],
    ['2024-02-29', 12, '2025-02-28'],
  ])('%s + %i months → %s', (date, months, expected) => {
    expect(addMonthsToDate(date, months)).toBe(expected);
  });
});
