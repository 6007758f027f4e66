import { DEFAULT_BLANK_RULES, type JUDGE_KEYS, MULTIPLE_POLICIES, QUESTION_TYPES, type BlankRules, type MultiplePolicy, type QuestionType } from '@cloud-classroom/shared/question-scoring';
import { MAX_OPTIONS, OPTION_KEYS, type QuestionCreateBody } from '@cloud-classroom/shared/questions';
import type { Readable } from 'node:stream';
import type * as ExcelJsModule from 'exceljs';
import { readWorkbook, rowCells, setExamplesAside, type WorkbookSheet } from '../../files/workbook-reader.js';
import { cellText, EXAMPLE_HEADER, loadExcelJs, markExamples, neutraliseCell } from '../../http/xlsx-export.js';

// The question bank's workbook (`GET api/questions/template`, `GET api/questions/download`,
// `POST api/questions/import`): one sheet per type, named in Chinese (the type's code is accepted
// too), each with a note row on the rules, the header row (Chinese; the English names are
// accepted too, in any order) and a question per row. The download writes the same format, so a
// downloaded bank imports again as it was.

/** More questions than one file should carry; a bigger file is refused rather than read. */
export const MAX_IMPORT_ROWS = 5000;

type OptionKey = (typeof OPTION_KEYS)[number];
type RuleId = keyof BlankRules;
export type ColumnId = 'stem' | `option${OptionKey}` | 'answer' | 'analysis' | 'difficulty' | 'tags' | 'score' | 'policy' | RuleId;

const RULE_IDS = ['ignoreCase', 'ignoreWidth', 'trimSpaces', 'ignoreInnerSpaces', 'anyOrder'] as const satisfies readonly RuleId[];
const optionColumn = (key: OptionKey): ColumnId => `option${key}`;

type ColumnSpec = { zh: string; en: string; width: number };
const COLUMNS: Record<ColumnId, ColumnSpec> = {
  stem: { zh: '题干', en: 'stem', width: 48 },
  ...(Object.fromEntries(OPTION_KEYS.map((key) => [optionColumn(key), { zh: `选项${key}`, en: `option${key}`, width: 18 }])) as Record<`option${OptionKey}`, ColumnSpec>),
  answer: { zh: '答案', en: 'answer', width: 16 },
  analysis: { zh: '解析', en: 'analysis', width: 36 },
  difficulty: { zh: '难度', en: 'difficulty', width: 8 },
  tags: { zh: '知识点', en: 'tags', width: 20 },
  score: { zh: '分值', en: 'score', width: 8 },
  policy: { zh: '评分方式', en: 'policy', width: 14 },
  ignoreCase: { zh: '忽略大小写', en: 'ignoreCase', width: 12 },
  ignoreWidth: { zh: '忽略全半角', en: 'ignoreWidth', width: 12 },
  trimSpaces: { zh: '忽略首尾空格', en: 'trimSpaces', width: 14 },
  ignoreInnerSpaces: { zh: '忽略所有空格', en: 'ignoreInnerSpaces', width: 14 },
  anyOrder: { zh: '不分顺序', en: 'anyOrder', width: 10 },
};

/** What the short-answer sheet calls its answer column (`答案` is accepted too). */
const REFERENCE_ANSWER = '参考答案';
const OPTION_COLUMNS = OPTION_KEYS.map(optionColumn);
const COMMON_TAIL: ColumnId[] = ['analysis', 'difficulty', 'tags', 'score'];

const POLICY_WORDS: Record<MultiplePolicy, string> = { all: '全对得分', proportional: '按比例得分', proportional_minus: '错选扣分' };
const POLICY_SYNONYMS: Record<string, MultiplePolicy> = {
  全部正确得分: 'all',
  全对才得分: 'all',
  部分得分: 'proportional',
  按比例: 'proportional',
  按比例扣分: 'proportional_minus',
  多选倒扣: 'proportional_minus',
};
const JUDGE_WORDS: Record<string, (typeof JUDGE_KEYS)[number]> = Object.fromEntries([
  ...['正确', '对', 't', 'true', '√', '✓', '✔', '是', 'y', 'yes'].map((word) => [word, 'T']),
  ...['错误', '错', 'f', 'false', '×', '✗', '✘', 'x', '否', 'n', 'no'].map((word) => [word, 'F']),
]);
const YES_WORDS = new Set(['是', 'y', 'yes', 't', 'true', '1', '√', '✓', '对']);
const NO_WORDS = new Set(['否', 'n', 'no', 'f', 'false', '0', '×', '错']);

const DIFFICULTY_NOTE = '难度：1–5 的整数（1 最易，留空为 3）';
const TAGS_NOTE = '知识点：多个用逗号、顿号或分号隔开';
const SCORE_NOTE = '分值：大于 0、不超过 100 的数，最多两位小数（留空为 1）';
const TEXT_NOTE = '题干、解析：以 < 开头按 HTML 读取，否则按纯文本读取';
const HEADER_NOTE = `表头可用中文或英文（stem, answer…）；本说明行导入时跳过；第一列「${EXAMPLE_HEADER}」有内容的行是示例，从不导入：自己的题目请另起一行，此列留空`;

type SheetSpec = { name: string; columns: ColumnId[]; note: string[]; examples: Partial<Record<ColumnId, string | number>>[] };

export const SHEETS: Record<QuestionType, SheetSpec> = {
  single: {
    name: '单选题',
    columns: ['stem', ...OPTION_COLUMNS, 'answer', ...COMMON_TAIL],
    note: [
      '单选题填写说明：题干、答案必填；选项从 A 起依次填写，至少 2 个、至多 10 个（A–J），不可跳过',
      '答案：一个选项字母，如 A',
      DIFFICULTY_NOTE,
      TAGS_NOTE,
      SCORE_NOTE,
      TEXT_NOTE,
      HEADER_NOTE,
    ],
    examples: [{ stem: '发现火情后，首先应当拨打的电话是？', optionA: '110', optionB: '119', optionC: '120', optionD: '122', answer: 'B', analysis: '119 是火警电话。', difficulty: 1, tags: '消防安全，应急', score: 2 }],
  },
  multiple: {
    name: '多选题',
    columns: ['stem', ...OPTION_COLUMNS, 'answer', ...COMMON_TAIL, 'policy'],
    note: [
      '多选题填写说明：题干、答案必填；选项从 A 起依次填写，至少 2 个、至多 10 个（A–J），不可跳过',
      '答案：一个或多个选项字母，如 AC 或 A,C',
      `评分方式：${POLICY_WORDS.all}（all，只有全部选对才得分）、${POLICY_WORDS.proportional}（proportional，有错选不得分，少选按比例得分）、${POLICY_WORDS.proportional_minus}（proportional_minus，按对的比例得分，每个错选扣一份，最低 0 分）；留空为${POLICY_WORDS.all}`,
      DIFFICULTY_NOTE,
      TAGS_NOTE,
      SCORE_NOTE,
      TEXT_NOTE,
      HEADER_NOTE,
    ],
    examples: [
      {
        stem: '下列属于灭火基本方法的有？',
        optionA: '隔离法',
        optionB: '窒息法',
        optionC: '冷却法',
        optionD: '加热法',
        answer: 'ABC',
        analysis: '加热只会助燃。',
        difficulty: 2,
        tags: '消防安全',
        score: 3,
        policy: POLICY_WORDS.proportional,
      },
    ],
  },
  judge: {
    name: '判断题',
    columns: ['stem', 'answer', ...COMMON_TAIL],
    note: ['判断题填写说明：题干、答案必填', '答案：正确 / 错误（也可写 对 / 错、T / F、true / false、√ / ×）', DIFFICULTY_NOTE, TAGS_NOTE, SCORE_NOTE, TEXT_NOTE, HEADER_NOTE],
    examples: [{ stem: '电器着火时可以直接用水扑救。', answer: '错误', analysis: '应先切断电源。', difficulty: 1, tags: '消防安全；用电安全', score: 1 }],
  },
  blank: {
    name: '填空题',
    columns: ['stem', 'answer', ...COMMON_TAIL, ...RULE_IDS],
    note: [
      '填空题填写说明：题干、答案必填；题干中用 ____ 表示空位',
      '答案：写在一个单元格里，空与空之间用 || 隔开，同一空的多个可接受答案用 | 隔开，如：北京||长江|长江河；答案本身含 | 或 \\ 时写作 \\| 或 \\\\',
      '判分规则（是 / 否，留空按默认）：忽略大小写（默认是）、忽略全半角（默认是）、忽略首尾空格（默认是）、忽略所有空格（默认否）、不分顺序（默认否，各空答案可互换位置）',
      DIFFICULTY_NOTE,
      TAGS_NOTE,
      SCORE_NOTE,
      TEXT_NOTE,
      HEADER_NOTE,
    ],
    examples: [
      {
        stem: '我国的首都是 ____，最长的河流是 ____。',
        answer: '北京||长江|长江河',
        analysis: '',
        difficulty: 1,
        tags: '常识',
        score: 2,
        ignoreCase: '是',
        ignoreWidth: '是',
        trimSpaces: '是',
        ignoreInnerSpaces: '否',
        anyOrder: '否',
      },
    ],
  },
  short: {
    name: '简答题',
    columns: ['stem', 'answer', ...COMMON_TAIL],
    note: ['简答题填写说明：题干必填；参考答案选填，供阅卷人参考（简答题由人工评分）', DIFFICULTY_NOTE, TAGS_NOTE, SCORE_NOTE, TEXT_NOTE, HEADER_NOTE],
    examples: [{ stem: '简述发生火灾时的疏散要点。', answer: '保持冷静，用湿毛巾捂住口鼻，低姿沿疏散通道撤离，不乘电梯。', analysis: '', difficulty: 3, tags: '消防安全，应急', score: 10 }],
  },
};

/** A column's header in the sheet of this type. */
export function headerOf(type: QuestionType, column: ColumnId): string {
  return type === 'short' && column === 'answer' ? REFERENCE_ANSWER : COLUMNS[column].zh;
}

// ---- Writing ------------------------------------------------------------------------------------

/** A question as the workbook holds it: the stem and analysis already as their cells' text. */
export type SheetQuestion = {
  type: QuestionType;
  stem: string;
  options: readonly { key: string; text: string }[];
  answer: readonly string[] | readonly (readonly string[])[];
  analysis: string;
  difficulty: number;
  tags: readonly string[];
  score: number;
  policy: MultiplePolicy | null;
  blankRules: BlankRules | null;
};

const escapeAlternative = (text: string) => text.replace(/[\\|]/g, (char) => `\\${char}`);

function cellsOf(question: SheetQuestion): Partial<Record<ColumnId, string | number>> {
  const cells: Partial<Record<ColumnId, string | number>> = {
    stem: question.stem,
    analysis: question.analysis,
    difficulty: question.difficulty,
    tags: question.tags.join('，'),
    score: question.score,
  };
  for (const option of question.options) cells[optionColumn(option.key as OptionKey)] = option.text;
  switch (question.type) {
    case 'single':
    case 'multiple':
      cells.answer = (question.answer as string[]).join('');
      if (question.type === 'multiple') cells.policy = POLICY_WORDS[question.policy ?? 'all'];
      break;
    case 'judge':
      cells.answer = question.answer[0] === 'T' ? '正确' : '错误';
      break;
    case 'blank': {
      cells.answer = (question.answer as string[][]).map((accepted) => accepted.map(escapeAlternative).join('|')).join('||');
      const rules = question.blankRules ?? DEFAULT_BLANK_RULES;
      for (const rule of RULE_IDS) cells[rule] = rules[rule] ? '是' : '否';
      break;
    }
    case 'short':
      cells.answer = (question.answer[0] as string | undefined) ?? '';
      break;
  }
  return cells;
}

type Worksheet = ExcelJsModule.Worksheet;

function addSheet(workbook: ExcelJsModule.Workbook, type: QuestionType, rows: readonly Partial<Record<ColumnId, string | number>>[], examples: boolean): Worksheet {
  const spec = SHEETS[type];
  const sheet = workbook.addWorksheet(spec.name);
  // The template's first column marks its example rows (`markExamples`); a download has none.
  const lead = examples ? [null] : [];
  sheet.columns = [...lead.map(() => ({})), ...spec.columns.map((column) => ({ width: COLUMNS[column].width }))];
  // Row 1: the rules, over the whole width; row 2: the headers.
  sheet.mergeCells(1, 1, 1, lead.length + spec.columns.length);
  const note = sheet.getCell(1, 1);
  note.value = spec.note.join('\n');
  note.alignment = { wrapText: true, vertical: 'top' };
  note.font = { color: { argb: 'FF595959' } };
  note.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF7E6' } };
  sheet.getRow(1).height = 16 * spec.note.length + 6;
  const header = sheet.getRow(2);
  header.values = [...lead, ...spec.columns.map((column) => headerOf(type, column))];
  header.font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 2 }];
  for (const row of rows) {
    const added = sheet.addRow([...lead, ...spec.columns.map((column) => neutraliseCell(row[column] ?? null))]);
    added.alignment = { wrapText: true, vertical: 'top' };
  }
  if (examples) {
    markExamples(
      sheet,
      2,
      rows.map((_, index) => index + 3),
    );
  }
  return sheet;
}

/**
 * The workbook: a sheet for each of `types` with its note and header, then the questions of that
 * type, or (`examples`) the sheet's example rows, for the template.
 */
export async function writeQuestionWorkbook(types: readonly QuestionType[], questions: readonly SheetQuestion[], { examples = false } = {}): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  for (const type of types) {
    const rows = examples ? SHEETS[type].examples : questions.filter((question) => question.type === type).map(cellsOf);
    addSheet(workbook, type, rows, examples);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---- Reading ------------------------------------------------------------------------------------

export type SheetError = { row: number; column: string; message: string };

/** One row read: the question's fields as the shared schema takes them, or what is wrong with its cells. */
export type SheetRow = {
  type: QuestionType;
  sheet: string;
  /** The sheet's place in the workbook. */
  sheetIndex: number;
  row: number;
  /** The header of each column the row's fields came from, for messages about them. */
  headers: Partial<Record<ColumnId, string>>;
  body: QuestionCreateBody;
  errors: SheetError[];
};

/** A problem of a sheet or its header, with the sheet's place in the workbook (errors are answered in the workbook's order). */
export type SheetProblem = SheetError & { sheetIndex: number };

export type SheetContent = {
  rows: SheetRow[];
  errors: SheetProblem[];
  /** The template's example rows, in the workbook's order: never imported. */
  examples: { sheet: string; row: number }[];
};

/** A header as compared: NFKC, lower case, no spaces, without a trailing `*` or `(…)` people add. */
const normaliseHeader = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\(.*\)$/, '')
    .replace(/[\s*_]/g, '');

const sheetTypeByName = new Map<string, QuestionType>(QUESTION_TYPES.flatMap((type) => [[SHEETS[type].name, type] as const, [type, type] as const]));

function columnByHeader(type: QuestionType): Map<string, ColumnId> {
  const headers = new Map<string, ColumnId>();
  for (const column of SHEETS[type].columns) {
    headers.set(normaliseHeader(COLUMNS[column].zh), column);
    headers.set(normaliseHeader(COLUMNS[column].en), column);
  }
  if (type === 'short') headers.set(normaliseHeader(REFERENCE_ANSWER), 'answer');
  return headers;
}

/** Options past J: a column for them is a row's problem when it holds something. */
const BEYOND_OPTIONS = /^(选项|option)[k-z]$/;

/**
 * A text cell's content: Excel keeps no apostrophe typed before `=`, `+`, `-` or `@` to make the
 * cell text, and the download writes one (`neutraliseCell`); either way it is not part of the text.
 */
function textCell(value: unknown): string {
  const text = cellText(value);
  return /^'[=+\-@]/.test(text) ? text.slice(1) : text;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A stem or analysis cell as HTML: a cell starting with `<` is HTML already; other text is a paragraph, its line breaks kept. */
export function htmlOfCell(text: string): string {
  if (text === '') return '';
  if (text.startsWith('<')) return text;
  return `<p>${escapeHtml(text).replace(/\r?\n/g, '<br />')}</p>`;
}

/** Splits on a separator not escaped by a backslash; the escapes stay for the next split. */
function splitUnescaped(text: string, separator: '||' | '|'): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === '\\' && index + 1 < text.length) {
      current += char + (text[index + 1] as string);
      index += 1;
    } else if (text.startsWith(separator, index)) {
      parts.push(current);
      current = '';
      index += separator.length - 1;
    } else current += char;
  }
  parts.push(current);
  return parts;
}

const unescapeAlternative = (text: string) => text.replace(/\\([\\|])/g, '$1');

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parseChoiceKeys(text: string): Parsed<string[]> {
  const compact = text.normalize('NFKC').toUpperCase().replace(/[\s,;、/]+/g, '');
  if (!/^[A-Z]+$/.test(compact)) return { ok: false, message: 'expected option letters, such as A, AC or A,C' };
  return { ok: true, value: [...compact] };
}

function parseJudge(text: string): Parsed<string[]> {
  const key = JUDGE_WORDS[text.normalize('NFKC').toLowerCase()];
  return key === undefined ? { ok: false, message: 'expected 正确 or 错误 (T or F)' } : { ok: true, value: [key] };
}

function parseBlanks(text: string): Parsed<string[][]> {
  return { ok: true, value: splitUnescaped(text, '||').map((blank) => splitUnescaped(blank, '|').map((alternative) => unescapeAlternative(alternative).trim())) };
}

function parsePolicy(text: string): Parsed<MultiplePolicy> {
  const word = text.normalize('NFKC').trim();
  const policy =
    (MULTIPLE_POLICIES as readonly string[]).includes(word.toLowerCase())
      ? (word.toLowerCase() as MultiplePolicy)
      : ((Object.entries(POLICY_WORDS).find(([, label]) => label === word)?.[0] as MultiplePolicy | undefined) ?? POLICY_SYNONYMS[word]);
  return policy === undefined
    ? { ok: false, message: `expected ${POLICY_WORDS.all}, ${POLICY_WORDS.proportional} or ${POLICY_WORDS.proportional_minus} (${MULTIPLE_POLICIES.join(', ')})` }
    : { ok: true, value: policy };
}

function parseFlag(text: string): Parsed<boolean> {
  const word = text.normalize('NFKC').toLowerCase();
  if (YES_WORDS.has(word)) return { ok: true, value: true };
  if (NO_WORDS.has(word)) return { ok: true, value: false };
  return { ok: false, message: 'expected 是 or 否' };
}

function parseNumber(text: string): Parsed<number> {
  const value = Number(text.normalize('NFKC'));
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, message: 'is not a number' };
}

/** The row's cells as a question of the sheet's type, each cell's own problems noted under its header. */
function readRow(type: QuestionType, cells: Partial<Record<ColumnId, string>>, headers: Partial<Record<ColumnId, string>>, row: number, sheet: string, sheetIndex: number): SheetRow {
  const errors: SheetError[] = [];
  const fail = (column: ColumnId, message: string) => errors.push({ row, column: headers[column] ?? headerOf(type, column), message });
  const text = (column: ColumnId) => cells[column] ?? '';
  const stem = text('stem');
  if (stem === '') fail('stem', 'is required');
  let answer: string[] | string[][] = [];
  const answerText = text('answer');
  if (answerText === '' && type !== 'short') fail('answer', 'is required');
  else {
    const parsed: Parsed<string[] | string[][]> =
      type === 'single' || type === 'multiple'
        ? parseChoiceKeys(answerText)
        : type === 'judge'
          ? parseJudge(answerText)
          : type === 'blank'
            ? parseBlanks(answerText)
            : { ok: true, value: answerText === '' ? [] : [answerText] };
    if (parsed.ok) answer = parsed.value;
    else fail('answer', parsed.message);
  }
  const body: QuestionCreateBody = { type, stem: htmlOfCell(stem), answer, analysis: htmlOfCell(text('analysis')) };
  if (type === 'single' || type === 'multiple') {
    body.options = OPTION_KEYS.flatMap((key) => (text(optionColumn(key)) === '' ? [] : [{ key, text: text(optionColumn(key)) }]));
  }
  const difficulty = text('difficulty');
  if (difficulty !== '') {
    const parsed = parseNumber(difficulty);
    if (!parsed.ok || !Number.isInteger(parsed.value) || parsed.value < 1 || parsed.value > 5) fail('difficulty', 'expected a whole number from 1 to 5');
    else body.difficulty = parsed.value;
  }
  const score = text('score');
  if (score !== '') {
    const parsed = parseNumber(score);
    if (parsed.ok) body.score = parsed.value;
    else fail('score', parsed.message);
  }
  body.tags = text('tags')
    .split(/[,，、;；\n]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (type === 'multiple' && text('policy') !== '') {
    const parsed = parsePolicy(text('policy'));
    if (parsed.ok) body.policy = parsed.value;
    else fail('policy', parsed.message);
  }
  if (type === 'blank') {
    const rules = { ...DEFAULT_BLANK_RULES };
    for (const rule of RULE_IDS) {
      if (text(rule) === '') continue;
      const parsed = parseFlag(text(rule));
      if (parsed.ok) rules[rule] = parsed.value;
      else fail(rule, parsed.message);
    }
    body.blankRules = rules;
  }
  return { type, sheet, sheetIndex, row, headers, body, errors };
}

/** The row whose cells name the stem column: the header (the note row above it, if any, is skipped). */
function findHeaderRow(sheet: WorkbookSheet, headers: Map<string, ColumnId>): number | undefined {
  for (let number = 1; number <= Math.min(sheet.rowCount, 5); number += 1) {
    if (rowCells(sheet, number).some((cell) => headers.get(normaliseHeader(cellText(cell))) === 'stem')) return number;
  }
  return undefined;
}

const SHEET_NAMES = QUESTION_TYPES.map((type) => `${SHEETS[type].name} (${type})`).join(', ');

function readSheet(whole: WorkbookSheet, sheetIndex: number, type: QuestionType, content: SheetContent): void {
  const headers = columnByHeader(type);
  const headerRow = findHeaderRow(whole, headers);
  if (headerRow === undefined) {
    content.errors.push({ sheetIndex, row: 1, column: whole.name, message: `no header row naming the column ${COLUMNS.stem.zh} (stem)` });
    return;
  }
  const { sheet, examples } = setExamplesAside(whole, headerRow);
  for (const row of examples) content.examples.push({ sheet: sheet.name, row });
  const columns = new Map<number, ColumnId>();
  const beyond: { index: number; header: string }[] = [];
  const headerCells = rowCells(sheet, headerRow);
  const seen = new Map<ColumnId, string>();
  for (let index = 1; index <= headerCells.length; index += 1) {
    const header = cellText(headerCells[index - 1]);
    if (header === '') continue;
    const column = headers.get(normaliseHeader(header));
    if (column === undefined) {
      if (BEYOND_OPTIONS.test(normaliseHeader(header)) && (type === 'single' || type === 'multiple')) beyond.push({ index, header });
      else content.errors.push({ sheetIndex, row: headerRow, column: header, message: `[${sheet.name}] is not a column of this sheet` });
    } else if (seen.has(column)) {
      content.errors.push({ sheetIndex, row: headerRow, column: header, message: `[${sheet.name}] the column ${seen.get(column)} is there already` });
    } else {
      columns.set(index, column);
      seen.set(column, header);
    }
  }
  for (const required of ['stem', 'answer'] as const) {
    if (!seen.has(required) && !(type === 'short' && required === 'answer')) {
      content.errors.push({ sheetIndex, row: headerRow, column: headerOf(type, required), message: `[${sheet.name}] the column is missing` });
    }
  }
  const found = Object.fromEntries(seen) as Partial<Record<ColumnId, string>>;
  for (const { number, cells: row } of sheet.rows) {
    if (number <= headerRow) continue;
    const cells: Partial<Record<ColumnId, string>> = {};
    let filled = false;
    for (const [index, column] of columns) {
      const value = textCell(row[index - 1]);
      if (value !== '') filled = true;
      cells[column] = value;
    }
    const extra = beyond.filter(({ index }) => textCell(row[index - 1]) !== '');
    if (!filled && extra.length === 0) continue;
    const read = readRow(type, cells, found, number, sheet.name, sheetIndex);
    for (const { header } of extra) read.errors.push({ row: number, column: header, message: `too many options: at most ${MAX_OPTIONS} (A–J)` });
    content.rows.push(read);
  }
}

/**
 * The workbook's questions, each row numbered as Excel numbers it, blank rows left out. A sheet
 * with content whose name is no type's, or without a header row, is an error of its own.
 */
export async function readQuestionWorkbook(file: Readable, field: string): Promise<SheetContent> {
  // A type's sheet has the rules row above its header.
  const sheets = await readWorkbook(file, field, { sheets: 'all', limit: { rows: MAX_IMPORT_ROWS, headerRows: 2, what: 'questions' } });
  const content: SheetContent = { rows: [], errors: [], examples: [] };
  const taken = new Set<QuestionType>();
  for (const [sheetIndex, sheet] of sheets.entries()) {
    const type = sheetTypeByName.get(sheet.name.trim()) ?? sheetTypeByName.get(sheet.name.trim().toLowerCase());
    if (type === undefined || taken.has(type)) {
      // An empty sheet (Excel's Sheet1 left over) is no problem.
      if (sheet.actualRowCount > 0) {
        content.errors.push({ sheetIndex, row: 1, column: sheet.name, message: type === undefined ? `unknown sheet: name it ${SHEET_NAMES}` : `a second sheet of ${SHEETS[type].name}` });
      }
      continue;
    }
    taken.add(type);
    readSheet(sheet, sheetIndex, type, content);
  }
  return content;
}
