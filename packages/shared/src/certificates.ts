import { z } from 'zod';
import { idSchema, idTextSchema, pageQuerySchema, REQUIRED, sortableBy } from './http.js';

// Certificates (DESIGN §6, §10; issue 14): a template's layout, the snapshot of every value a
// certificate prints, its number pattern, the public verification answer, and the pure rules
// around them (numbers, the masked holder name, the status at a moment). The server renders the
// PDF from a template version + a snapshot (modules/certificates/certificate-pdf.ts), so a
// certificate prints the same forever, whatever later happens to the person, course or template.

// ---------------------------------------------------------------------------------------------
// Template layout
// ---------------------------------------------------------------------------------------------

export const CERTIFICATE_PAGE_SIZES = ['A4', 'A5', 'Letter'] as const;
export type CertificatePageSize = (typeof CERTIFICATE_PAGE_SIZES)[number];
export const CERTIFICATE_ORIENTATIONS = ['landscape', 'portrait'] as const;
export type CertificateOrientation = (typeof CERTIFICATE_ORIENTATIONS)[number];
export const CERTIFICATE_ALIGNMENTS = ['left', 'center', 'right'] as const;
export type CertificateAlignment = (typeof CERTIFICATE_ALIGNMENTS)[number];

/** Portrait width × height in millimetres. */
export const CERTIFICATE_PAGE_MM: Record<CertificatePageSize, { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  A5: { width: 148, height: 210 },
  Letter: { width: 215.9, height: 279.4 },
};

export function certificatePageMm(pageSize: CertificatePageSize, orientation: CertificateOrientation): { width: number; height: number } {
  const { width, height } = CERTIFICATE_PAGE_MM[pageSize];
  return orientation === 'landscape' ? { width: height, height: width } : { width, height };
}

/** PDF points per millimetre (72 points an inch). */
export const POINTS_PER_MM = 72 / 25.4;

/** Fields that print a value of the snapshot; `freeText` prints the template's own text, `qrCode` the verification link. */
export const CERTIFICATE_VALUE_FIELDS = ['holderName', 'title', 'score', 'issuedOn', 'expiresOn', 'number'] as const;
export type CertificateValueField = (typeof CERTIFICATE_VALUE_FIELDS)[number];
export const CERTIFICATE_FIELD_KINDS = [...CERTIFICATE_VALUE_FIELDS, 'freeText', 'qrCode'] as const;
export type CertificateFieldKind = (typeof CERTIFICATE_FIELD_KINDS)[number];

export const MAX_CERTIFICATE_FIELDS = 40;

// Positions are millimetres from the page's top-left corner, as staff measure paper and as the
// editor's scaled page converts without knowing the PDF's units; font sizes are points, as
// every word processor gives them.
const mmSchema = z.number(REQUIRED).min(0).max(1000);
const colorSchema = z
  .string(REQUIRED)
  .regex(/^#[0-9a-fA-F]{6}$/, "expected a colour as '#rrggbb'")
  .transform((color) => color.toLowerCase());

const textPlacement = {
  /** Left edge of the field's box, mm from the page's left. */
  x: mmSchema,
  /** Top of the first line, mm from the page's top. */
  y: mmSchema,
  /** The box's width in mm: the text is aligned within it and shrunk to fit it on one line. */
  width: z.number(REQUIRED).min(5).max(1000),
  /** Points. */
  fontSize: z.number(REQUIRED).min(6).max(144),
  color: colorSchema.default('#000000'),
  align: z.enum(CERTIFICATE_ALIGNMENTS).default('left'),
  bold: z.boolean().default(false),
};

const affixSchema = z.string().max(50).default('');
/** `{yyyy}`, `{yy}`, `{MM}`, `{dd}` and any other text; e.g. `{yyyy}年{MM}月{dd}日`. */
export const certificateDateFormatSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(40)
  .superRefine((format, ctx) => {
    const tokens = format.match(/\{[^}]*\}/g) ?? [];
    // Without one it would print the same text on every certificate (`yyyy年M月d日` as written).
    if (tokens.length === 0) ctx.addIssue({ code: 'custom', message: 'has no placeholder; use {yyyy}, {yy}, {MM} or {dd}' });
    for (const token of tokens) {
      if (!DATE_TOKENS.includes(token)) ctx.addIssue({ code: 'custom', message: `unknown placeholder ${token}; use {yyyy}, {yy}, {MM} or {dd}` });
    }
  });

export const valueFieldSchema = z.object({
  kind: z.enum(CERTIFICATE_VALUE_FIELDS),
  ...textPlacement,
  /** Printed before and after the value, and left out with it when the value is empty (no expiry, no score). */
  prefix: affixSchema,
  suffix: affixSchema,
  /** How `issuedOn` and `expiresOn` print; ignored by the others. */
  dateFormat: certificateDateFormatSchema.default('{yyyy}-{MM}-{dd}'),
});
export const freeTextFieldSchema = z.object({
  kind: z.literal('freeText'),
  ...textPlacement,
  text: z.string(REQUIRED).trim().min(1, 'is required').max(500),
});
const qrCodeFieldSchema = z.object({
  kind: z.literal('qrCode'),
  x: mmSchema,
  y: mmSchema,
  /** The square's side in mm; under 15 mm phones struggle to read a link this long. */
  size: z.number(REQUIRED).min(15).max(150),
  color: colorSchema.default('#000000'),
});

export const certificateFieldSchema = z.discriminatedUnion('kind', [valueFieldSchema, freeTextFieldSchema, qrCodeFieldSchema]);
export type CertificateField = z.output<typeof certificateFieldSchema>;
export type CertificateFieldInput = z.input<typeof certificateFieldSchema>;

/**
 * A file-store key of an uploaded background (PNG or JPEG, the two kinds pdfkit embeds), under the
 * certificates' own folder; never a path out of it.
 */
export const certificateBackgroundKeySchema = z
  .string()
  .regex(/^cert-backgrounds\/(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]+\.(?:png|jpe?g)$/, 'is not a certificate background');

/** `GET api/cert-templates/backgrounds?key=`: a background the editor shows on its page. */
export const certificateBackgroundQuerySchema = z.object({ key: certificateBackgroundKeySchema });

export const certificateLayoutSchema = z
  .object({
    pageSize: z.enum(CERTIFICATE_PAGE_SIZES).default('A4'),
    orientation: z.enum(CERTIFICATE_ORIENTATIONS).default('landscape'),
    /** Stretched over the whole page, under the fields; null: a white page. */
    backgroundImage: certificateBackgroundKeySchema.nullish().transform((key) => key ?? null),
    fields: z.array(certificateFieldSchema).max(MAX_CERTIFICATE_FIELDS).default([]),
  })
  .superRefine((layout, ctx) => {
    const page = certificatePageMm(layout.pageSize, layout.orientation);
    layout.fields.forEach((field, index) => {
      const width = field.kind === 'qrCode' ? field.size : field.width;
      const height = field.kind === 'qrCode' ? field.size : 0;
      // A hair of slack: the editor's drag rounds to 0.1 mm.
      if (field.x + width > page.width + 0.05) {
        ctx.addIssue({ code: 'custom', path: ['fields', index, 'x'], message: `runs off the page's right edge (${page.width} mm wide)` });
      }
      if (field.y + height > page.height + 0.05) {
        ctx.addIssue({ code: 'custom', path: ['fields', index, 'y'], message: `runs off the page's bottom edge (${page.height} mm high)` });
      }
    });
  });
export type CertificateLayout = z.output<typeof certificateLayoutSchema>;
export type CertificateLayoutInput = z.input<typeof certificateLayoutSchema>;

// ---------------------------------------------------------------------------------------------
// Certificate numbers
// ---------------------------------------------------------------------------------------------

const DATE_TOKENS = ['{yyyy}', '{yy}', '{MM}', '{dd}'];
export const MAX_SEQ_DIGITS = 12;
export const MAX_CERTIFICATE_NUMBER_LENGTH = 64;

type PatternPart = { literal: string } | { date: string } | { seqDigits: number };
type ParsedPattern = { ok: true; parts: PatternPart[] } | { ok: false; message: string };

// Literal text may be letters and digits of any script and `- _ . #`: a number travels in links
// and names files in a ZIP, where a space, a slash or a quote would need escaping or break a path.
const LITERAL = /^[\p{L}\p{N}\-_.#]$/u;

function parseNumberPattern(pattern: string): ParsedPattern {
  const parts: PatternPart[] = [];
  let seqCount = 0;
  let literal = '';
  const flush = () => {
    if (literal) parts.push({ literal });
    literal = '';
  };
  for (let index = 0; index < pattern.length; ) {
    const char = pattern[index] as string;
    if (char === '{') {
      const end = pattern.indexOf('}', index);
      if (end < 0) return { ok: false, message: `has a '{' without its '}' at position ${index + 1}` };
      const token = pattern.slice(index, end + 1);
      flush();
      const seq = /^\{seq:(\d{1,2})\}$/.exec(token);
      if (seq) {
        const digits = Number(seq[1]);
        if (digits < 1 || digits > MAX_SEQ_DIGITS) return { ok: false, message: `${token}: the sequence takes 1 to ${MAX_SEQ_DIGITS} digits` };
        seqCount += 1;
        parts.push({ seqDigits: digits });
      } else if (DATE_TOKENS.includes(token)) {
        parts.push({ date: token });
      } else {
        return { ok: false, message: `unknown placeholder ${token}; use {yyyy}, {yy}, {MM}, {dd} or {seq:N}` };
      }
      index = end + 1;
      continue;
    }
    if (char === '}') return { ok: false, message: `has a '}' without its '{' at position ${index + 1}` };
    const codePoint = String.fromCodePoint(pattern.codePointAt(index) as number);
    if (!LITERAL.test(codePoint)) return { ok: false, message: `may hold letters, digits, '-', '_', '.' and '#' besides placeholders, not '${codePoint}'` };
    literal += codePoint;
    index += codePoint.length;
  }
  flush();
  // Without a sequence two certificates of one day would get the same number; with two, the
  // pattern would be ambiguous about which one counts.
  if (seqCount !== 1) return { ok: false, message: seqCount === 0 ? 'needs a sequence, such as {seq:6}' : 'may hold only one {seq:N}' };
  return { ok: true, parts };
}

/** A template's number pattern, e.g. `CC-{yyyy}-{seq:6}`: `{yyyy}`, `{yy}`, `{MM}`, `{dd}` of the issue date, and one `{seq:N}`, the sequence padded to N digits. */
export const certificateNumberPatternSchema = z
  .string(REQUIRED)
  .trim()
  .min(1, 'is required')
  .max(40)
  .superRefine((pattern, ctx) => {
    if (pattern === '') return; // 'is required' says it already
    const parsed = parseNumberPattern(pattern);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
  });

const pad = (value: number, digits: number) => String(value).padStart(digits, '0');

function dateToken(token: string, date: Date): string {
  switch (token) {
    case '{yyyy}':
      return pad(date.getFullYear(), 4);
    case '{yy}':
      return pad(date.getFullYear() % 100, 2);
    case '{MM}':
      return pad(date.getMonth() + 1, 2);
    default:
      return pad(date.getDate(), 2);
  }
}

/**
 * The number of the `seq`th certificate under `pattern`, with the date placeholders taken from
 * `issuedAt` in the server's zone (as every wire time is). A sequence longer than its digits is
 * printed whole, never cut: numbers stay unique. Throws on a pattern the schema refuses (stored
 * patterns have passed it) and on a sequence that is not a positive integer.
 */
export function formatCertificateNumber(pattern: string, issuedAt: Date | number, seq: number): string {
  const parsed = parseNumberPattern(pattern);
  if (!parsed.ok) throw new Error(`certificate number pattern ${JSON.stringify(pattern)} ${parsed.message}`);
  if (!Number.isSafeInteger(seq) || seq < 1) throw new Error(`certificate sequence ${seq} is not a positive integer`);
  const date = new Date(issuedAt);
  if (Number.isNaN(date.getTime())) throw new Error('certificate issue time is not a valid time');
  return parsed.parts
    .map((part) => ('literal' in part ? part.literal : 'date' in part ? dateToken(part.date, date) : pad(seq, part.seqDigits)))
    .join('');
}

/** Any certificate's number, including imported ones with their original numbers, which followed no pattern of ours. */
export const certificateNumberSchema = z
  .string(REQUIRED)
  .trim()
  .min(1, 'is required')
  .max(MAX_CERTIFICATE_NUMBER_LENGTH)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .refine((number) => !/[\u0000-\u001f\u007f]/.test(number), 'holds a control character');

// ---------------------------------------------------------------------------------------------
// Snapshot: every printed value
// ---------------------------------------------------------------------------------------------

/** A calendar date `yyyy-MM-dd`: a certificate prints a day, which must not move if the server's zone does. */
export const calendarDateSchema = z
  .string(REQUIRED)
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected 'yyyy-MM-dd'")
  .refine((text) => {
    const [year, month, day] = text.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  }, 'is not a date');

export const certificateSnapshotSchema = z
  .object({
    /** As the person was named when issued; a later correction re-issues and supersedes this one. */
    holderName: z.string(REQUIRED).trim().min(1, 'is required').max(100),
    /** The course's or exam's title (or an imported certificate's). */
    title: z.string(REQUIRED).trim().min(1, 'is required').max(200),
    /** As printed ("92.5", or an imported grade such as "合格"); null prints nothing. */
    score: z.string().trim().max(20).nullish().transform((score) => (score ? score : null)),
    issuedOn: calendarDateSchema,
    /** Null: never expires. */
    expiresOn: calendarDateSchema.nullish().transform((date) => date ?? null),
    number: certificateNumberSchema,
  })
  .refine((snapshot) => snapshot.expiresOn === null || snapshot.expiresOn > snapshot.issuedOn, {
    message: 'is not after the issue date',
    path: ['expiresOn'],
  });
export type CertificateSnapshot = z.output<typeof certificateSnapshotSchema>;

/**
 * The calendar date of `time` in the server's zone, as `formatCertificateNumber` reads its date:
 * a certificate's printed issue date and the date in its number come from the same clock reading.
 */
export function calendarDateOf(time: Date | number): string {
  const date = new Date(time);
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
}

/** A calendar date as `format` prints it (`{yyyy}`, `{yy}`, `{MM}`, `{dd}`). */
export function formatCalendarDate(date: string, format: string): string {
  const [year = '', month = '', day = ''] = date.split('-');
  const parts: Record<string, string> = { '{yyyy}': year, '{yy}': year.slice(-2), '{MM}': month, '{dd}': day };
  return format.replace(/\{(?:yyyy|yy|MM|dd)\}/g, (token) => parts[token] ?? token);
}

/** The text a value field prints, affixes included; '' when the snapshot has no such value. */
export function certificateFieldText(field: Extract<CertificateField, { kind: CertificateValueField }>, snapshot: CertificateSnapshot): string {
  const value = snapshot[field.kind];
  if (value === null || value === '') return '';
  const text = field.kind === 'issuedOn' || field.kind === 'expiresOn' ? formatCalendarDate(value, field.dateFormat) : value;
  return `${field.prefix}${text}${field.suffix}`;
}

/**
 * The calendar date `months` after `date`, kept to the month's last day when it has no such day
 * (31 January + 1 month = 28 or 29 February): when a template's certificates expire.
 */
export function addMonthsToDate(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return `${pad(target.getUTCFullYear(), 4)}-${pad(target.getUTCMonth() + 1, 2)}-${pad(Math.min(day, lastDay), 2)}`;
}

// ---------------------------------------------------------------------------------------------
// Verification
// ---------------------------------------------------------------------------------------------

/** DESIGN §10's `valid|expired|revoked`, and `superseded`: re-issued (a corrected name), the old one kept in the history. */
export const CERTIFICATE_STATUSES = ['valid', 'expired', 'revoked', 'superseded'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

export type CertificateLifecycle = {
  /** Epoch ms; the certificate is expired from this moment on. Null: never expires. */
  expiresAt: number | null;
  revokedAt: number | null;
  supersededAt: number | null;
};

/**
 * What a certificate is at `at` (epoch ms). Revoked wins over everything (it was withdrawn), then
 * superseded (a newer one replaces it, expired or not), then expired. Each counts only from its
 * moment, so the status at an earlier time is what it was then.
 */
export function certificateStatusAt(certificate: CertificateLifecycle, at: number): CertificateStatus {
  const reached = (moment: number | null) => moment !== null && moment <= at;
  if (reached(certificate.revokedAt)) return 'revoked';
  if (reached(certificate.supersededAt)) return 'superseded';
  if (reached(certificate.expiresAt)) return 'expired';
  return 'valid';
}

const HAN = /\p{Script=Han}/u;
// Separators stay visible: spaces, the middle dot of transliterated names (阿依古丽·买买提), hyphens, apostrophes, dots of initials.
const SEPARATORS = /([\s·・\-'.]+)/u;

function maskPart(part: string): string {
  const chars = Array.from(part);
  if (chars.length === 0) return '';
  if (chars.some((char) => HAN.test(char))) {
    // Chinese: the surname and, past two characters, the last one (王*明, 欧**明); a two-character name keeps only its surname (张*).
    if (chars.length === 1) return '*';
    if (chars.length === 2) return `${chars[0]}*`;
    return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
  }
  // Latin and other alphabets: each word's initial (Zhang Wei → Z**** W**).
  return `${chars[0]}${'*'.repeat(chars.length - 1)}`;
}

/**
 * The holder's name as the public verification shows it: enough for whoever holds the paper to
 * match it, too little to learn a name from a guessed number. Every part of a name hides at least
 * one character (a one-character part all of it), unless it is an initial already (J.).
 */
export function maskHolderName(name: string): string {
  return name
    .trim()
    .split(SEPARATORS)
    .map((part, index) => (index % 2 === 1 ? part : maskPart(part)))
    .join('');
}

/** `GET api/public/certificates/verify?number=&code=` (DESIGN §10); a wrong code answers as an unknown number does (404). */
export const certificateVerifyQuerySchema = z.object({
  number: certificateNumberSchema,
  code: z.string(REQUIRED).trim().min(1, 'is required').max(64),
});
export type CertificateVerifyQuery = z.output<typeof certificateVerifyQuerySchema>;

export const certificateVerificationSchema = z.object({
  status: z.enum(CERTIFICATE_STATUSES),
  number: z.string(),
  /** Masked (`maskHolderName`). */
  holder: z.string(),
  title: z.string(),
  /** Wire times, `yyyy-MM-dd HH:mm:ss`. */
  issuedAt: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type CertificateVerification = z.infer<typeof certificateVerificationSchema>;

// ---------------------------------------------------------------------------------------------
// The API: templates, certificates, the learner's list (DESIGN §10)
// ---------------------------------------------------------------------------------------------

const certAuditFields = {
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
};

export const DEFAULT_CERTIFICATE_NUMBER_PATTERN = 'CC-{yyyy}-{seq:6}';
/** The longest validity a template may give (50 years); null: its certificates never expire. */
export const MAX_VALIDITY_MONTHS = 600;

/** A stored layout as the API answers it: the output of certificateLayoutSchema, without its checks and defaults (a response schema is compiled to a serializer). */
const placed = { x: z.number(), y: z.number(), width: z.number(), fontSize: z.number(), color: z.string(), align: z.enum(CERTIFICATE_ALIGNMENTS), bold: z.boolean() };
export const savedCertificateLayoutSchema = z.object({
  pageSize: z.enum(CERTIFICATE_PAGE_SIZES),
  orientation: z.enum(CERTIFICATE_ORIENTATIONS),
  backgroundImage: z.string().nullable(),
  fields: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.enum(CERTIFICATE_VALUE_FIELDS), ...placed, prefix: z.string(), suffix: z.string(), dateFormat: z.string() }),
      z.object({ kind: z.literal('freeText'), ...placed, text: z.string() }),
      z.object({ kind: z.literal('qrCode'), x: z.number(), y: z.number(), size: z.number(), color: z.string() }),
    ]),
  ),
}) satisfies z.ZodType<CertificateLayout>;

export const certTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  numberPattern: z.string(),
  validityMonths: z.number().int().nullable(),
  /** The current version's number (1, 2, …): what the next certificate is issued with. */
  version: z.number().int(),
  layout: savedCertificateLayoutSchema,
  /** Certificates issued with any version of it. */
  certificateCount: z.number().int(),
  ...certAuditFields,
});
export type CertTemplate = z.infer<typeof certTemplateSchema>;

export const CERT_TEMPLATE_SORT_FIELDS = ['id', 'name', 'createTime', 'updateTime'] as const;
export const certTemplateQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(CERT_TEMPLATE_SORT_FIELDS),
  q: z.string().trim().max(100).optional(),
});
export type CertTemplateQuery = z.output<typeof certTemplateQuerySchema>;

const certTemplateFields = {
  name: z.string(REQUIRED).trim().min(1, 'is required').max(100),
  numberPattern: certificateNumberPatternSchema.default(DEFAULT_CERTIFICATE_NUMBER_PATTERN),
  validityMonths: z.number().int().min(1).max(MAX_VALIDITY_MONTHS).nullish().transform((months) => months ?? null),
  layout: certificateLayoutSchema,
};
export const certTemplateCreateSchema = z.object(certTemplateFields);
export type CertTemplateCreate = z.output<typeof certTemplateCreateSchema>;
export const certTemplateUpdateSchema = z.object({ id: idSchema, ...certTemplateFields });
export type CertTemplateUpdate = z.output<typeof certTemplateUpdateSchema>;

/** One version of a template's layout; certificates keep the version they were issued with. */
export const certTemplateVersionSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  layout: savedCertificateLayoutSchema,
  certificateCount: z.number().int(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});
export type CertTemplateVersion = z.infer<typeof certTemplateVersionSchema>;

/** `GET api/cert-templates/{id}/preview?version=`: the current version unless one is named. */
export const certTemplatePreviewQuerySchema = z.object({ version: idTextSchema.optional() });

export const CERTIFICATE_SOURCES = ['staff', 'exam', 'term', 'import', 'reissue'] as const;
export type CertificateSource = (typeof CERTIFICATE_SOURCES)[number];

export const certificateSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  /** The verification code, which the holder shares with the number (the QR code holds both). */
  code: z.string(),
  userId: z.number().int(),
  /** The account's name now (null once the account is gone); the printed name is `holderName`. */
  username: z.string().nullable(),
  holderName: z.string(),
  title: z.string(),
  score: z.string().nullable(),
  issuedOn: z.string(),
  expiresOn: z.string().nullable(),
  status: z.enum(CERTIFICATE_STATUSES),
  source: z.enum(CERTIFICATE_SOURCES),
  templateId: z.number().int(),
  templateName: z.string(),
  templateVersion: z.number().int(),
  examId: z.number().int().nullable(),
  termId: z.number().int().nullable(),
  issuedAt: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  revokeReason: z.string().nullable(),
  /** The certificate that replaced this one (a re-issue), and the one this replaced. */
  supersededBy: z.number().int().nullable(),
  supersedes: z.number().int().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});
export type Certificate = z.infer<typeof certificateSchema>;

export const CERTIFICATE_SORT_FIELDS = ['id', 'number', 'holderName', 'issuedAt', 'expiresAt', 'revokedAt'] as const;
export const certificateQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(CERTIFICATE_SORT_FIELDS),
  /** In the number, the printed name or the account's username. */
  q: z.string().trim().max(100).optional(),
  templateId: idTextSchema.optional(),
  userId: idTextSchema.optional(),
  examId: idTextSchema.optional(),
  termId: idTextSchema.optional(),
  /** The status now. */
  status: z.enum(CERTIFICATE_STATUSES).optional(),
});
export type CertificateQuery = z.output<typeof certificateQuerySchema>;

export const MAX_ISSUE_PEOPLE = 1000;

const issueIdsSchema = z
  .array(idSchema)
  .min(1, 'list at least one person')
  .max(MAX_ISSUE_PEOPLE)
  .transform((ids) => [...new Set(ids)]);

/**
 * `POST api/certificates/issue`: to chosen people, or to a term's applicants (enrolled ones; the
 * term is theirs unless an exam is named), optionally for an exam (its title, their counted score)
 * or a term (its course's title).
 */
export const certificateIssueSchema = z
  .object({
    templateId: idSchema,
    userIds: issueIdsSchema.optional(),
    applicantIds: issueIdsSchema.optional(),
    examId: idSchema.nullish().transform((id) => id ?? null),
    termId: idSchema.nullish().transform((id) => id ?? null),
    /** What the certificate names instead of the exam's, course's or template's title. */
    title: z.string().trim().max(200).nullish().transform((title) => (title ? title : null)),
    /**
     * Issue again to people who hold a valid certificate of the template for the exam or term
     * already, superseding it; without it they are refused (409), as a second one is a duplicate.
     */
    reissue: z.boolean().optional().transform((reissue) => reissue === true),
  })
  .refine((body) => (body.userIds === undefined) !== (body.applicantIds === undefined), { message: 'list people or applicants, one of the two', path: ['userIds'] })
  .refine((body) => body.examId === null || body.termId === null, { message: 'name an exam or a term, not both', path: ['termId'] });
export type CertificateIssue = z.output<typeof certificateIssueSchema>;

export const certificatesIssuedSchema = z.object({
  /** The new certificates' ids and numbers, in the order of `userIds`. */
  certificates: z.array(z.object({ id: z.number().int(), userId: z.number().int(), number: z.string() })),
});
export type CertificatesIssued = z.infer<typeof certificatesIssuedSchema>;

export const certificateRevokeSchema = z.object({
  ids: z
    .array(idSchema)
    .min(1, 'list at least one id')
    .max(1000)
    .transform((ids) => [...new Set(ids)]),
  reason: z.string(REQUIRED).trim().min(1, 'is required').max(500),
});
export type CertificateRevoke = z.output<typeof certificateRevokeSchema>;

/** `POST api/certificates/{id}/reissue`: a new certificate with the name corrected; the old one is kept, superseded. */
export const certificateReissueSchema = z.object({
  /** The name to print; by default the account's name now. */
  holderName: z.string().trim().max(100).nullish().transform((name) => (name ? name : null)),
});
export type CertificateReissue = z.output<typeof certificateReissueSchema>;

/** The learner's own certificates (`GET api/site/my/certificates`). */
export const myCertificateSchema = certificateSchema.pick({
  id: true,
  number: true,
  code: true,
  holderName: true,
  title: true,
  score: true,
  issuedOn: true,
  expiresOn: true,
  status: true,
  issuedAt: true,
  expiresAt: true,
  revokedAt: true,
  revokeReason: true,
  supersededBy: true,
  /** What it was issued for, so a course's page can show the certificate of its term or of one of its exams. */
  examId: true,
  termId: true,
});
export type MyCertificate = z.infer<typeof myCertificateSchema>;

// ---------------------------------------------------------------------------------------------
// Issuing rules: a template issued when an exam is passed or a term completed (`api/cert-rules`)
// ---------------------------------------------------------------------------------------------

export const certRuleSchema = z.object({
  id: z.number().int(),
  templateId: z.number().int(),
  templateName: z.string(),
  examId: z.number().int().nullable(),
  termId: z.number().int().nullable(),
  /** The exam's title or the term's course and name. */
  targetName: z.string(),
  /** Certificates this rule issued. */
  issuedCount: z.number().int(),
  ...certAuditFields,
});
export type CertRule = z.infer<typeof certRuleSchema>;

export const certRuleQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(['id', 'createTime'] as const),
  templateId: idTextSchema.optional(),
  examId: idTextSchema.optional(),
  termId: idTextSchema.optional(),
});
export type CertRuleQuery = z.output<typeof certRuleQuerySchema>;

/** `POST api/cert-rules`: issue the template to whoever passes the exam, or completes the term. */
export const certRuleCreateSchema = z
  .object({
    templateId: idSchema,
    examId: idSchema.nullish().transform((id) => id ?? null),
    termId: idSchema.nullish().transform((id) => id ?? null),
  })
  .refine((body) => (body.examId === null) !== (body.termId === null), { message: 'name an exam or a term', path: ['examId'] });
export type CertRuleCreate = z.output<typeof certRuleCreateSchema>;

// ---------------------------------------------------------------------------------------------
// Import of existing certificates (`POST api/certificates/import?dryRun=`), an xlsx
// ---------------------------------------------------------------------------------------------

/**
 * The spreadsheet's columns, in order: the holder's username, the template (its name), the
 * original number (kept), the issue and expiry dates (`yyyy-MM-dd` or date cells; expiry may be
 * empty), the printed title (empty: the template's name) and the printed score (any text, or empty).
 */
export const CERTIFICATE_IMPORT_COLUMNS = ['username', 'template', 'number', 'issuedOn', 'expiresOn', 'title', 'score'] as const;
export type CertificateImportColumn = (typeof CERTIFICATE_IMPORT_COLUMNS)[number];

/** A dry run (the default) checks every row and writes nothing; a real run writes all rows or, with any bad row, none. */
export const certificateImportQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
});
export type CertificateImportQuery = z.output<typeof certificateImportQuerySchema>;
