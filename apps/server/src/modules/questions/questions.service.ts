import crypto from 'node:crypto';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page } from '@cloud-classroom/shared/http';
import type { ImportResult } from '@cloud-classroom/shared/applicants';
import { QUESTION_TYPES, type BlankRules, type MultiplePolicy, type QuestionType } from '@cloud-classroom/shared/question-scoring';
import {
  OPTION_KEYS,
  plainTextOf,
  questionCreateSchema,
  QUESTION_TEXT_MAX_LENGTH,
  type Question,
  type QuestionAnswer,
  type QuestionCreate,
  type QuestionImage,
  type QuestionOption,
  type QuestionQuery,
  type QuestionTag,
  type QuestionUpdate,
} from '@cloud-classroom/shared/questions';
import type { Insertable, Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { changed, created } from '../../db/audit-columns.js';
import type { Database, QuestionTable } from '../../db/schema.js';
import { conflict, DomainError, forbidden, invalidInput, notFound } from '../../domain-error.js';
import type { Principal } from '../auth/session.service.js';
import type { FileStore } from '../../files/file-store.js';
import type { FileType } from '../../files/file-type.js';
import type { FileOwner } from '../../files/orphan-files.js';
import type { Upload } from '../../files/upload.js';
import { isBlankRichText, sanitizeRichText } from '../../rich-text.js';
import { stemKeyOf } from './stem-key.js';
import { headerOf, htmlOfCell, readQuestionWorkbook, writeQuestionWorkbook, type ColumnId, type SheetQuestion, type SheetRow } from './question-sheet.js';
import {
  deleteQuestions,
  findExamsUsing,
  findImageInAttemptOf,
  findQuestionsInAttempts,
  findImageKeysAmong,
  findMatchingIds,
  findQuestionIdsAmong,
  findQuestionImage,
  findQuestionContents,
  findQuestions,
  findStemKeysAmong,
  findTags,
  findTagsOf,
  insertQuestion,
  insertQuestionImage,
  setQuestionTags,
  updateQuestion,
  type ListedQuestionRow,
  type QuestionContentRow,
  type QuestionFilter,
} from './questions.repo.js';

export type QuestionsOptions = {
  db: Kysely<Database>;
  clock: Clock;
  files: FileStore;
  /** Whether the user may use the bank (holds `question:list`, or is an administrator). */
  mayListQuestions: (userId: number) => Promise<boolean>;
};

/**
 * Called inside the transaction of an update that changed how a question is scored (its type, key,
 * multiple-choice policy or blank rules), with the ids and who changed them.
 */
export type KeyChangedListener = (questionIds: number[], by: string, trx: Kysely<Database>) => Promise<void>;

/** What papers, attempts, marking and reports show and score of a question (`QuestionsService.contentsOf`). */
export type QuestionContent = Pick<Question, 'id' | 'type' | 'stem' | 'stemText' | 'options' | 'answer' | 'blankRules' | 'analysis' | 'score' | 'policy'>;

/** What a draw rule of an exam asks of the bank. */
export type QuestionRule = { tags: string[]; type: QuestionType; difficulty: number | null };

/** Images in stems and analyses live under `<dataDir>/question-images/<yyyyMM>/`. */
const IMAGE_FOLDER = 'question-images';
export const IMAGE_TYPES = ['png', 'jpeg', 'gif', 'webp'] as const satisfies readonly FileType[];
type ImageType = (typeof IMAGE_TYPES)[number];
const IMAGE_FILES: Record<ImageType, { mime: string; extension: string }> = {
  png: { mime: 'image/png', extension: 'png' },
  jpeg: { mime: 'image/jpeg', extension: 'jpg' },
  gif: { mime: 'image/gif', extension: 'gif' },
  webp: { mime: 'image/webp', extension: 'webp' },
};
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** The tag select shows this many at most. */
const TAG_LIST_LIMIT = 50;

const imageUrl = (id: number) => `/api/questions/images/${id}`;

/** The key in one canonical form: choice keys in option order, blank answers and the reference trimmed. */
function canonicalAnswer(type: QuestionType, answer: QuestionAnswer): QuestionAnswer {
  switch (type) {
    case 'single':
    case 'multiple':
      return [...(answer as string[])].sort();
    case 'judge':
      return answer;
    case 'blank':
      return (answer as string[][]).map((accepted) => accepted.map((text) => text.trim()));
    case 'short':
      return (answer as string[]).map((text) => text.trim()).filter((text) => text !== '');
  }
}

/** A question ready to be stored: its columns, and its knowledge points. */
export type PreparedQuestion = { row: Omit<Insertable<QuestionTable>, 'create_by' | 'update_by' | 'create_time' | 'update_time'>; tags: string[] };

/**
 * The stored form of a checked question (the shared schema has applied `questionShapeIssues`):
 * stem and analysis through the rich-text allow-list, the stem's text and duplicate key beside it.
 * Throws `stem: is required` when nothing of the stem survives the allow-list.
 */
export async function prepareQuestion(question: QuestionCreate): Promise<PreparedQuestion> {
  const stem = await sanitizeRichText(question.stem);
  if (isBlankRichText(stem)) throw invalidInput('stem: is required');
  if (stem.length > QUESTION_TEXT_MAX_LENGTH) throw invalidInput(`stem: is longer than ${QUESTION_TEXT_MAX_LENGTH} characters`);
  const analysis = await sanitizeRichText(question.analysis);
  if (analysis.length > QUESTION_TEXT_MAX_LENGTH) throw invalidInput(`analysis: is longer than ${QUESTION_TEXT_MAX_LENGTH} characters`);
  return {
    row: {
      type: question.type,
      stem,
      stem_text: plainTextOf(stem),
      stem_key: stemKeyOf(question.type, stem),
      options: JSON.stringify(question.options),
      answer: JSON.stringify(canonicalAnswer(question.type, question.answer)),
      blank_rules: question.blankRules === null ? null : JSON.stringify(question.blankRules),
      analysis: isBlankRichText(analysis) ? '' : analysis,
      difficulty: question.difficulty,
      score: question.score,
      policy: question.policy,
    },
    tags: question.tags,
  };
}

function toContent(row: QuestionContentRow): QuestionContent {
  return {
    id: row.id,
    // Written only by this service, from the shared schemas.
    type: row.type as QuestionType,
    stem: row.stem,
    stemText: row.stem_text,
    options: JSON.parse(row.options) as QuestionOption[],
    answer: JSON.parse(row.answer) as QuestionAnswer,
    blankRules: row.blank_rules === null ? null : (JSON.parse(row.blank_rules) as BlankRules),
    analysis: row.analysis,
    score: Number(row.score),
    policy: row.policy as MultiplePolicy | null,
  };
}

function toQuestion(row: ListedQuestionRow, tags: readonly string[]): Question {
  return {
    ...toContent(row),
    difficulty: row.difficulty,
    tags: [...tags],
    duplicate: row.duplicate,
    examCount: row.exam_count,
    createBy: row.create_by,
    updateBy: row.update_by,
    createTime: formatDateTime(row.create_time),
    updateTime: formatDateTime(row.update_time),
  };
}

const decodeText = (html: string) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * A stem's or analysis's cell in the workbook: the text of a lone paragraph of plain text, when the
 * import makes that very HTML of it again; else the HTML itself (which the import reads as HTML).
 */
async function cellOfRichText(html: string): Promise<string> {
  const paragraph = /^<p>([^<]*)<\/p>$/.exec(html);
  if (paragraph === null) return html;
  const text = decodeText(paragraph[1] as string);
  const plain = text !== '' && text === text.trim() && !text.startsWith('<') && (await sanitizeRichText(htmlOfCell(text))) === html;
  return plain ? text : html;
}

type RowIssue = { field: string; message: string };

/** `field: message` split at its field. */
/** How much of a stem the import's dry run lists, in characters. */
const EXCERPT_LENGTH = 40;
function excerpt(text: string): string {
  const characters = [...text];
  return characters.length > EXCERPT_LENGTH ? `${characters.slice(0, EXCERPT_LENGTH - 1).join('')}…` : text;
}

function splitMessage(text: string): RowIssue {
  const colon = text.indexOf(': ');
  return colon < 0 ? { field: '', message: text } : { field: text.slice(0, colon), message: text.slice(colon + 2) };
}

/** The column of the workbook a field's problem belongs to. */
function columnOf(row: SheetRow, path: readonly PropertyKey[]): ColumnId {
  const [field, index] = path;
  switch (field) {
    case 'options': {
      const options = row.body.options ?? [];
      if (typeof index === 'number') return `option${(options[index]?.key ?? 'A') as (typeof OPTION_KEYS)[number]}`;
      // A gap or too few: the first option missing.
      const given = new Set(options.map((option) => option.key));
      return `option${OPTION_KEYS.find((key) => !given.has(key)) ?? 'A'}`;
    }
    case 'blankRules':
      return (typeof index === 'string' ? index : 'ignoreCase') as ColumnId;
    case 'stem':
    case 'answer':
    case 'analysis':
    case 'difficulty':
    case 'tags':
    case 'score':
    case 'policy':
      return field;
    default:
      return 'stem';
  }
}

const filterOf = ({ type, difficulty, tag, q, duplicate, exclude }: Omit<QuestionQuery, 'page' | 'size' | 'sort'>): QuestionFilter => ({ type, difficulty, tag, q, duplicate, exclude });

/**
 * The question bank (DESIGN §6): questions of five types with their knowledge points, the images
 * their stems and analyses show, and what the exams ask of it (the questions a draw rule may take,
 * the questions of a paper). Stems and analyses are rich text, kept only as the allow-list leaves
 * them; a question shares a `stem_key` with its duplicates, which are flagged, not refused (the
 * spreadsheet import refuses them, since a file sent twice would double the bank).
 */
export class QuestionsService {
  constructor(
    private readonly options: QuestionsOptions,
    private readonly keyListeners: KeyChangedListener[] = [],
  ) {}

  /** The same service inside a transaction, for callers whose own writes go with these. */
  within(db: Kysely<Database>): QuestionsService {
    return db === this.options.db ? this : new QuestionsService({ ...this.options, db }, this.keyListeners);
  }

  /** Listens to changes of how questions are scored (the attempts regrade the answers already given). */
  onKeyChanged(listener: KeyChangedListener): void {
    this.keyListeners.push(listener);
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  private async withTags(rows: readonly ListedQuestionRow[]): Promise<Question[]> {
    const tags = await findTagsOf(this.db, rows.map((row) => row.id));
    return rows.map((row) => toQuestion(row, tags.get(row.id) ?? []));
  }

  // ---- Reads ------------------------------------------------------------------------------------

  async list(query: QuestionQuery): Promise<Page<Question>> {
    const page = await findQuestions(this.db, filterOf(query), query);
    return { content: await this.withTags(page.content), totalElements: page.totalElements };
  }

  async one(id: number): Promise<Question> {
    const [question] = await this.byIds([id]);
    if (question === undefined) throw notFound(`id: no question ${id}`);
    return question;
  }

  /** Every question the filters match, in the asked order (else oldest first), for the download. */
  async exportRows(query: QuestionQuery): Promise<Question[]> {
    // Oldest first unless asked otherwise: a downloaded bank imports again in the order it was made.
    const sort = query.sort.length > 0 ? query.sort : [{ field: 'id', direction: 'asc' as const }];
    return this.withTags((await findQuestions(this.db, filterOf(query), { sort })).content);
  }

  /** Whole questions (key and analysis included) of these ids, in no particular order; ids of no question are left out. */
  private async byIds(ids: readonly number[]): Promise<Question[]> {
    if (ids.length === 0) return [];
    const rows: ListedQuestionRow[] = [];
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += 500) {
      rows.push(...(await findQuestions(this.db, { ids: unique.slice(start, start + 500) })).content);
    }
    return this.withTags(rows);
  }

  /** These questions' content (those that exist, in no particular order): what papers and attempts show and score. */
  async contentsOf(ids: readonly number[]): Promise<QuestionContent[]> {
    return ids.length === 0 ? [] : (await findQuestionContents(this.db, ids)).map(toContent);
  }

  /** The ids of the questions a draw rule may take: of its type, with any of its tags (any, when none), of its difficulty (any, when null). */
  async matchingIds(rule: QuestionRule): Promise<number[]> {
    return findMatchingIds(this.db, rule);
  }

  async tags(q: string | undefined): Promise<QuestionTag[]> {
    return findTags(this.db, q, TAG_LIST_LIMIT);
  }

  // ---- Writes -----------------------------------------------------------------------------------

  async create(question: QuestionCreate, by: string): Promise<number> {
    const prepared = await prepareQuestion(question);
    return this.transaction((trx) => this.insert(trx, prepared, by));
  }

  /** Stores prepared questions (the import's, all in its transaction). */
  private async insert(trx: Kysely<Database>, { row, tags }: PreparedQuestion, by: string): Promise<number> {
    const id = await insertQuestion(trx, { ...row, ...created(by, this.options.clock.now()) });
    await setQuestionTags(trx, id, tags);
    return id;
  }

  async update({ id, ...question }: QuestionUpdate, by: string): Promise<void> {
    const { row, tags } = await prepareQuestion(question);
    await this.transaction(async (trx) => {
      const [before] = (await findQuestions(trx, { ids: [id] })).content;
      if (!(await updateQuestion(trx, id, { ...row, ...changed(by, this.options.clock.now()) }))) throw notFound(`id: no question ${id}`);
      await setQuestionTags(trx, id, tags);
      const rescored = before !== undefined && (before.type !== row.type || before.answer !== row.answer || before.policy !== row.policy || before.blank_rules !== row.blank_rules);
      if (rescored) for (const listener of this.keyListeners) await listener([id], by, trx);
    });
  }

  /**
   * Refused (409) while an exam has any of them as a fixed question (naming the exams), or an
   * attempt's paper holds any (its answers are scored and reviewed against it).
   */
  async delete(ids: readonly number[]): Promise<void> {
    await this.transaction(async (trx) => {
      const found = await findQuestionIdsAmong(trx, ids);
      const missing = ids.filter((id) => !found.includes(id));
      if (missing.length > 0) throw notFound(`ids: no question ${missing.join(', ')}`);
      const exams = await findExamsUsing(trx, ids);
      if (exams.length > 0) throw conflict(`ids: still in the paper of ${exams.map((title) => `'${title}'`).join(', ')}`);
      const taken = await findQuestionsInAttempts(trx, ids);
      if (taken.length > 0) throw conflict(`ids: question ${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} in exam attempts already`);
      await deleteQuestions(trx, ids);
    });
  }

  // ---- The workbook ------------------------------------------------------------------------------

  /** The import template: one type's sheet, or a sheet per type, each with its example rows. */
  async template(type: QuestionType | undefined): Promise<Buffer> {
    return writeQuestionWorkbook(type === undefined ? QUESTION_TYPES : [type], [], { examples: true });
  }

  /** The questions the filters match as the import's workbook (a sheet per type, or the filtered type's). */
  async exportWorkbook(query: QuestionQuery): Promise<Buffer> {
    const questions = await this.exportRows(query);
    const rows: SheetQuestion[] = [];
    for (const question of questions) {
      rows.push({ ...question, stem: await cellOfRichText(question.stem), analysis: await cellOfRichText(question.analysis) });
    }
    return writeQuestionWorkbook(query.type === undefined ? QUESTION_TYPES : [query.type], rows);
  }

  /**
   * Adds the questions of a workbook (the template's format). Every row is checked first, by the
   * rules the form follows (the shared schema, `questionShapeIssues`, the rich-text allow-list),
   * and each problem answered as `{ row, column, message }` with the column's header and the
   * sheet's name at the start of the message; a question whose stem is already in the bank, or
   * in an earlier row, is a problem too (a file sent twice would double the bank).
   *
   * All or nothing: a dry run writes nothing, and neither does a real run with any problem.
   */
  async import(dryRun: boolean, upload: Upload, by: string): Promise<ImportResult> {
    const content = await readQuestionWorkbook(upload.content, upload.field);
    const checked: { row: SheetRow; errors: ImportResult['errors']; prepared?: PreparedQuestion }[] = [];
    for (const row of content.rows) {
      const issues: { column: ColumnId | string; message: string }[] = row.errors.map(({ column, message }) => ({ column, message }));
      const parsed = questionCreateSchema.safeParse(row.body);
      let prepared: PreparedQuestion | undefined;
      if (!parsed.success) {
        for (const issue of parsed.error.issues) issues.push({ column: this.header(row, columnOf(row, issue.path)), message: issue.message });
      } else if (issues.length === 0) {
        try {
          prepared = await prepareQuestion(parsed.data);
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind !== 'invalid') throw error;
          const { field, message } = splitMessage(error.message);
          issues.push({ column: this.header(row, columnOf(row, [field])), message });
        }
      }
      // One problem per cell: what the schema says again of a cell already refused is left out.
      const seen = new Set<string>();
      const errors = issues
        .filter(({ column }) => !seen.has(column) && seen.add(column))
        .map(({ column, message }) => ({ row: row.row, column, message: `[${row.sheet}] ${message}` }));
      checked.push({ row, errors, ...(prepared === undefined || errors.length > 0 ? {} : { prepared }) });
    }
    const inBank = await findStemKeysAmong(this.db, checked.flatMap((item) => (item.prepared ? [item.prepared.row.stem_key] : [])));
    const firstRowOf = new Map<string, number>();
    for (const item of checked) {
      if (item.prepared === undefined) continue;
      const key = item.prepared.row.stem_key;
      const stem = this.header(item.row, 'stem');
      const existing = inBank.get(key);
      const earlier = firstRowOf.get(key);
      const problem = existing !== undefined ? `the bank has this question already (id ${existing})` : earlier !== undefined ? `repeats the question in row ${earlier}` : undefined;
      if (problem === undefined) firstRowOf.set(key, item.row.row);
      else {
        item.errors.push({ row: item.row.row, column: stem, message: `[${item.row.sheet}] ${problem}` });
        delete item.prepared;
      }
    }
    // In the workbook's order: sheet by sheet, row by row (a sheet's own problems first in its row).
    const errors = [...content.errors, ...checked.flatMap((item) => item.errors.map((error) => ({ ...error, sheetIndex: item.row.sheetIndex })))]
      .sort((a, b) => a.sheetIndex - b.sheetIndex || a.row - b.row)
      .map(({ row, column, message }) => ({ row, column, message }));
    const ready = checked.flatMap((item) => (item.prepared === undefined ? [] : [item.prepared]));
    const rows = checked.flatMap(({ row, prepared }) => (prepared === undefined ? [] : [{ sheet: row.sheet, row: row.row, type: row.type, text: excerpt(prepared.row.stem_text) }]));
    const result = { total: checked.length, valid: ready.length, created: 0, errors, rows, examples: content.examples };
    if (dryRun || errors.length > 0) return result;
    await this.transaction(async (trx) => {
      for (const question of ready) await this.insert(trx, question, by);
    });
    return { ...result, created: ready.length };
  }

  private header(row: SheetRow, column: ColumnId): string {
    return row.headers[column] ?? headerOf(row.type, column);
  }

  // ---- Images -----------------------------------------------------------------------------------

  /** Keeps an image for a stem or an analysis (PNG, JPEG, GIF or WebP, the reader has checked the bytes). */
  async uploadImage(upload: Upload, by: string): Promise<QuestionImage> {
    if (upload.empty) throw invalidInput(`${upload.field}: is empty`);
    const image = IMAGE_FILES[upload.type as ImageType];
    const now = this.options.clock.now();
    const key = [IMAGE_FOLDER, formatDateTime(now, '{y}{m}'), `${crypto.randomBytes(16).toString('hex')}.${image.extension}`].join('/');
    const { size } = await this.options.files.put(key, upload.content);
    try {
      const id = await insertQuestionImage(this.db, { mime: image.mime, size, file_key: key, ...created(by, now) });
      return { id, url: imageUrl(id) };
    } catch (error) {
      await this.options.files.delete(key);
      throw error;
    }
  }

  /**
   * An image for the bank's users, and for a candidate whose attempt shows it in a question's
   * stem (analyses are shown only in reviews, through the same attempt); 403 to anyone else.
   */
  async image(id: number, caller: Principal): Promise<{ key: string; mime: string }> {
    if (!caller.isAdmin && !(await this.options.mayListQuestions(caller.userId)) && !(await findImageInAttemptOf(this.db, caller.userId, id))) {
      throw forbidden(`id: question image ${id} is not in a paper of yours`);
    }
    const row = await findQuestionImage(this.db, id);
    if (row === undefined) throw notFound(`id: no question image ${id}`);
    return { key: row.file_key, mime: row.mime };
  }

  /** The images' files in the file store, for the sweep of files no row refers to. */
  readonly imageFiles: FileOwner = {
    folder: IMAGE_FOLDER,
    referenced: async (keys) => new Set(await findImageKeysAmong(this.db, keys)),
  };
}
