import type { Page, SortOrder } from '@cloud-classroom/shared/http';
import type { QUESTION_SORT_FIELDS, QuestionTag } from '@cloud-classroom/shared/questions';
import type { QuestionType } from '@cloud-classroom/shared/question-scoring';
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { contains } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database, QuestionImageTable, QuestionTable } from '../../db/schema.js';

export type QuestionRow = Selectable<QuestionTable>;
/** A question's row with what the list shows beside it. */
export type ListedQuestionRow = QuestionRow & { duplicate: boolean; exam_count: number };

export type QuestionFilter = {
  type?: QuestionType | undefined;
  difficulty?: number | undefined;
  tag?: string | undefined;
  q?: string | undefined;
  duplicate?: boolean | undefined;
  exclude?: readonly number[] | undefined;
  ids?: readonly number[] | undefined;
};

type SortField = (typeof QUESTION_SORT_FIELDS)[number];

/** Newest first unless asked otherwise. */
const ORDERING: Ordering<SortField> = {
  sortable: {
    id: 'q.id',
    type: 'q.type',
    difficulty: 'q.difficulty',
    score: 'q.score',
    createTime: 'q.create_time',
    updateTime: 'q.update_time',
  },
  byDefault: [['q.id', 'desc']],
  tiebreak: [['q.id', 'desc']],
};

/** Ids asked about at once: keeps `in (…)` lists well under every database's limit. */
const BATCH = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += BATCH) result.push(items.slice(start, start + BATCH));
  return result;
}

function filtered(db: Kysely<Database>, filter: QuestionFilter) {
  let query = db.selectFrom('edu_question as q');
  if (filter.type) query = query.where('q.type', '=', filter.type);
  if (filter.difficulty !== undefined) query = query.where('q.difficulty', '=', filter.difficulty);
  if (filter.q) query = query.where(contains(['q.stem_text'], filter.q));
  if (filter.tag !== undefined) {
    const tag = filter.tag;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('edu_question_tag as qt')
          .innerJoin('edu_tag as t', 't.id', 'qt.tag_id')
          .select('qt.id')
          .whereRef('qt.question_id', '=', 'q.id')
          .where('t.name', '=', tag),
      ),
    );
  }
  if (filter.duplicate) query = query.where(({ exists }) => exists(sameStem(db)));
  if (filter.exclude && filter.exclude.length > 0) query = query.where('q.id', 'not in', filter.exclude);
  if (filter.ids) query = query.where('q.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  return query;
}

/** Another question with the stem key of `q`. */
function sameStem(db: Kysely<Database>) {
  return db
    .selectFrom('edu_question as other')
    .select('other.id')
    .where('other.stem_key', '=', sql.ref<string>('q.stem_key'))
    .where('other.id', '<>', sql.ref<number>('q.id'));
}

type RawListed = QuestionRow & { duplicate: unknown; exam_count: unknown };

/** The matching questions with their duplicate flag and exam count, in one statement. */
export async function findQuestions(
  db: Kysely<Database>,
  filter: QuestionFilter,
  page: { page?: number | undefined; size?: number | undefined; sort?: readonly SortOrder[] | undefined } = {},
): Promise<Page<ListedQuestionRow>> {
  const { content, totalElements } = await paginate(
    filtered(db, filter),
    (query) =>
      query.selectAll('q').select((eb) => [
        eb.exists(sameStem(db)).as('duplicate'),
        eb.selectFrom('edu_exam_question as eq').select((count) => count.fn.countAll().as('n')).whereRef('eq.question_id', '=', 'q.id').as('exam_count'),
      ]),
    ORDERING,
    page,
  );
  // SQLite answers the flag as 0/1 and PostgreSQL as a boolean; PostgreSQL a count as text.
  return {
    content: (content as RawListed[]).map((row) => ({ ...row, duplicate: Boolean(Number(row.duplicate)), exam_count: Number(row.exam_count) })),
    totalElements,
  };
}

/** What a paper shows and scores of a question: none of the bank's own bookkeeping. */
const CONTENT_COLUMNS = ['id', 'type', 'stem', 'stem_text', 'options', 'answer', 'blank_rules', 'analysis', 'score', 'policy'] as const;
export type QuestionContentRow = Pick<QuestionRow, (typeof CONTENT_COLUMNS)[number]>;

/**
 * These questions' content, for drawing a paper and showing an attempt: a plain read by id, at
 * every exam start, without the list's duplicate flag, exam count, paging and knowledge points.
 */
export async function findQuestionContents(db: Kysely<Database>, ids: readonly number[]): Promise<QuestionContentRow[]> {
  const rows: QuestionContentRow[] = [];
  for (const batch of chunks([...new Set(ids)])) rows.push(...(await db.selectFrom('edu_question').select(CONTENT_COLUMNS).where('id', 'in', batch).execute()));
  return rows;
}

/** The knowledge points of these questions, each question's in the order they were given. */
export async function findTagsOf(db: Kysely<Database>, questionIds: readonly number[]): Promise<Map<number, string[]>> {
  const tags = new Map<number, string[]>();
  for (const ids of chunks(questionIds)) {
    const rows = await db
      .selectFrom('edu_question_tag as qt')
      .innerJoin('edu_tag as t', 't.id', 'qt.tag_id')
      .select(['qt.question_id', 't.name'])
      .where('qt.question_id', 'in', ids)
      .orderBy('qt.id')
      .execute();
    for (const row of rows) {
      const list = tags.get(row.question_id) ?? [];
      list.push(row.name);
      tags.set(row.question_id, list);
    }
  }
  return tags;
}

export async function insertQuestion(db: Kysely<Database>, question: Insertable<QuestionTable>): Promise<number> {
  const { id } = await db.insertInto('edu_question').values(question).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Answers whether the question was there. */
export async function updateQuestion(db: Kysely<Database>, id: number, question: Updateable<QuestionTable>): Promise<boolean> {
  const result = await db.updateTable('edu_question').set(question).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Which of these ids are questions. */
export async function findQuestionIdsAmong(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  const found: number[] = [];
  for (const batch of chunks(ids)) found.push(...(await db.selectFrom('edu_question').select('id').where('id', 'in', batch).execute()).map((row) => row.id));
  return found;
}

export async function deleteQuestions(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  for (const batch of chunks(ids)) {
    await db.deleteFrom('edu_question_tag').where('question_id', 'in', batch).execute();
    await db.deleteFrom('edu_question').where('id', 'in', batch).execute();
  }
}

/** The exams having any of these questions as a fixed question, by title. */
export async function findExamsUsing(db: Kysely<Database>, questionIds: readonly number[]): Promise<string[]> {
  const titles = new Set<string>();
  for (const ids of chunks(questionIds)) {
    const rows = await db
      .selectFrom('edu_exam_question as eq')
      .innerJoin('edu_exam as e', 'e.id', 'eq.exam_id')
      .select(['e.id', 'e.title'])
      .where('eq.question_id', 'in', ids)
      .orderBy('e.id')
      .execute();
    for (const row of rows) titles.add(row.title);
  }
  return [...titles];
}

/**
 * Gives the question exactly these knowledge points, in this order, creating the tags that do not
 * exist yet (a parallel request creating the same one is no failure: the name is unique).
 */
export async function setQuestionTags(db: Kysely<Database>, questionId: number, names: readonly string[]): Promise<void> {
  await db.deleteFrom('edu_question_tag').where('question_id', '=', questionId).execute();
  if (names.length === 0) return;
  const ids = await tagIds(db, names);
  await db
    .insertInto('edu_question_tag')
    .values(names.map((name) => ({ question_id: questionId, tag_id: ids.get(name) as number })))
    .execute();
}

/** The ids of these tags, made first where missing. */
async function tagIds(db: Kysely<Database>, names: readonly string[]): Promise<Map<string, number>> {
  await db
    .insertInto('edu_tag')
    .values(names.map((name) => ({ name })))
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const rows = await db.selectFrom('edu_tag').select(['id', 'name']).where('name', 'in', [...names]).execute();
  return new Map(rows.map((row) => [row.name, row.id]));
}

/** The knowledge points whose name contains `q` (all without), most used first, with their question counts. */
export async function findTags(db: Kysely<Database>, q: string | undefined, limit: number): Promise<QuestionTag[]> {
  let query = db
    .selectFrom('edu_tag as t')
    .leftJoin('edu_question_tag as qt', 'qt.tag_id', 't.id')
    .select((eb) => ['t.name', eb.fn.count<number | string>('qt.id').as('question_count')])
    .groupBy(['t.id', 't.name']);
  if (q) query = query.where(contains(['t.name'], q));
  const rows = await query.orderBy('question_count', 'desc').orderBy('t.name').limit(limit).execute();
  return rows.map((row) => ({ name: row.name, questionCount: Number(row.question_count) }));
}

/** The ids of the questions of this type (and difficulty, when given) carrying any of the tags (any question, when none). */
export async function findMatchingIds(db: Kysely<Database>, rule: { tags: readonly string[]; type: QuestionType; difficulty: number | null }): Promise<number[]> {
  let query = db.selectFrom('edu_question as q').select('q.id').where('q.type', '=', rule.type);
  if (rule.difficulty !== null) query = query.where('q.difficulty', '=', rule.difficulty);
  if (rule.tags.length > 0) {
    const tags = [...rule.tags];
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('edu_question_tag as qt')
          .innerJoin('edu_tag as t', 't.id', 'qt.tag_id')
          .select('qt.id')
          .whereRef('qt.question_id', '=', 'q.id')
          .where('t.name', 'in', tags),
      ),
    );
  }
  return (await query.orderBy('q.id').execute()).map((row) => row.id);
}

/** Which of these stem keys a question already has, with the first such question's id. */
export async function findStemKeysAmong(db: Kysely<Database>, keys: readonly string[]): Promise<Map<string, number>> {
  const taken = new Map<string, number>();
  for (const batch of chunks([...new Set(keys)])) {
    const rows = await db.selectFrom('edu_question').select(['stem_key', sql<number>`min(id)`.as('id')]).where('stem_key', 'in', batch).groupBy('stem_key').execute();
    for (const row of rows) taken.set(row.stem_key, Number(row.id));
  }
  return taken;
}

// ---- Images -------------------------------------------------------------------------------------

export type QuestionImageRow = Selectable<QuestionImageTable>;

export async function insertQuestionImage(db: Kysely<Database>, image: Insertable<QuestionImageTable>): Promise<number> {
  const { id } = await db.insertInto('edu_question_image').values(image).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function findQuestionImage(db: Kysely<Database>, id: number): Promise<QuestionImageRow | undefined> {
  return db.selectFrom('edu_question_image').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Whether the user has an attempt whose paper holds a question showing this image in its stem
 * (sanitised HTML quotes its attributes, so the closing quote ends the id).
 */
export async function findImageInAttemptOf(db: Kysely<Database>, userId: number, imageId: number): Promise<boolean> {
  const row = await db
    .selectFrom('edu_attempt as a')
    .innerJoin('edu_attempt_answer as aa', 'aa.attempt_id', 'a.id')
    .innerJoin('edu_question as q', 'q.id', 'aa.question_id')
    .select('a.id')
    .where('a.user_id', '=', userId)
    .where('q.stem', 'like', `%/api/questions/images/${imageId}"%`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these questions are in some attempt's paper. */
export async function findQuestionsInAttempts(db: Kysely<Database>, questionIds: readonly number[]): Promise<number[]> {
  const found = new Set<number>();
  for (const ids of chunks(questionIds)) {
    const rows = await db.selectFrom('edu_attempt_answer').select('question_id').distinct().where('question_id', 'in', ids).execute();
    for (const row of rows) found.add(row.question_id);
  }
  return [...found].sort((a, b) => a - b);
}

/** Which of these file keys an image row has. */
export async function findImageKeysAmong(db: Kysely<Database>, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  return (await db.selectFrom('edu_question_image').select('file_key').where('file_key', 'in', [...keys]).execute()).map((row) => row.file_key);
}
