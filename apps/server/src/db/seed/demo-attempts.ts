import { attemptDeadline, attemptScore, passes } from '@cloud-classroom/shared/attempt-rules';
import type { CLIENT_EVENT_TYPES } from '@cloud-classroom/shared/attempts';
import { drawQuestions, shuffled } from '@cloud-classroom/shared/exam-draw';
import { scoreResponse, type BlankRules, type MultiplePolicy, type QuestionType, type ScorableQuestion } from '@cloud-classroom/shared/question-scoring';
import type { Transaction } from 'kysely';
import type { Database } from '../schema.js';

// The demo exam as a class has sat it, so the marking queue, the report and the learners' results
// have something real: the demo candidates' attempts of the last few days, answered as people
// answer (mostly right for the strong, often wrong for the weak, a mind changed here and there,
// minutes on the short answers), scored by the shared scoring exactly as the server scores a
// submission; most marked by the teacher with comments, a few still awaiting the marker; with the
// seconds each answer took and a few integrity signals. learner1..3 keep the exam untouched.

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

/** A short answer as written, and the teacher's mark of it (a share of the question's points) once marked. */
type ShortAnswer = { text: string; mark?: { share: number; comment: string } };

export type DemoSitting = {
  username: string;
  /** When the attempt started, this many hours before the seed. */
  startedHoursAgo: number;
  /** The chance of getting an automatically scored question right. */
  skill: number;
  /** The answers to the short questions, in the paper's order; all marked, or none (awaiting the marker). */
  shorts: [ShortAnswer, ShortAnswer];
  /**
   * Integrity signals the page reported: `after` seconds into the question in that place of the
   * paper (0-based), and its pair (visible, focus, online) `forSeconds` later.
   */
  events?: { type: Extract<ClientEventType, 'hidden' | 'blur' | 'offline' | 'paste'>; position: number; after: number; forSeconds?: number; detail?: string }[];
  ip: string;
  agent: string;
};

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const EDGE_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** The teacher who marked the short answers (a demo account of seed-data.ts). */
export const DEMO_MARKER = 'teacher';

/**
 * The attempts, oldest first. The first short question is the extinguisher's steps, the second
 * the escape from the 12th floor (demo-questions.ts, `inExam: 'short'`).
 */
export const DEMO_SITTINGS: readonly DemoSitting[] = [
  {
    username: 'liuyang',
    startedHoursAgo: 70,
    skill: 0.55,
    shorts: [
      { text: '拔出插销，对着火喷就可以了，喷完为止。', mark: { share: 0.4, comment: '步骤不完整：没有说明对准火焰根部，也没有写站在上风方向。' } },
      { text: '找到窗户打开呼救，实在不行就从窗户爬出去。', mark: { share: 0.2, comment: '12 层爬窗非常危险，开窗也可能把浓烟引进来。请复习“火灾逃生”一章。' } },
    ],
    ip: '10.12.3.41',
    agent: SAFARI_IPHONE,
  },
  {
    username: 'chenjing',
    startedHoursAgo: 52,
    skill: 0.95,
    shorts: [
      {
        text: '使用前先看压力表，指针在绿区才能用。提起灭火器，站在上风方向，离火源 2～3 米；拔掉保险销；一手握住喷管对准火焰根部；另一只手压下压把，左右扫射，由近及远推进。注意不能倒置使用，不要对着人喷；扑救油火时不要直接冲击液面，以免油火飞溅。',
        mark: { share: 1, comment: '步骤和注意事项都很完整，站位也写清楚了。' },
      },
      {
        text: '绝不乘电梯。先摸门把手，烫的话不开门，用湿毛巾、湿衣服把门缝堵严，关好窗户防烟；用湿毛巾捂住口鼻，尽量趴低。马上打 119，说清楚大楼地址、12 层、哪个房间、有几个人。到窗口挥动颜色鲜艳的衣服，晚上用手机电筒发信号。不能跳楼，等待救援。',
        mark: { share: 0.9, comment: '要点齐全，报警信息讲得很具体；烟小时也可以考虑沿疏散楼梯向下撤离。' },
      },
    ],
    ip: '10.12.3.17',
    agent: CHROME_WINDOWS,
  },
  {
    username: 'sunhao',
    startedHoursAgo: 49,
    skill: 0.35,
    shorts: [
      { text: '先打 119，然后找灭火器灭火，灭不了就跑。', mark: { share: 0.2, comment: '没有回答灭火器的使用步骤，请复习第二章“灭火器的使用”。' } },
      {
        text: '不能坐电梯。用湿毛巾捂住口鼻，弯腰沿着安全出口指示走楼梯往下跑。如果楼道烟太大就退回房间，关门，用湿布堵门缝，打 119 求救。',
        mark: { share: 0.7, comment: '这道题答得不错。不过和你的其他答案风格差异较大，答题记录里有一次粘贴，请下次独立作答。' },
      },
    ],
    events: [
      { type: 'blur', position: 14, after: 10, forSeconds: 95 },
      { type: 'paste', position: 14, after: 108, detail: '92 characters' },
    ],
    ip: '10.12.3.52',
    agent: EDGE_WINDOWS,
  },
  {
    username: 'huangzhiqiang',
    startedHoursAgo: 46,
    skill: 0.7,
    shorts: [
      { text: '先拔掉保险销，然后对准火焰根部按下压把，来回喷，直到火灭。用之前要检查压力表是不是在绿色区域。', mark: { share: 0.6, comment: '少了“提”和站位；检查压力表这一点写得好。' } },
      { text: '用湿毛巾捂住口鼻，低姿从楼梯逃生，不要坐电梯，打 119。', mark: { share: 0.6, comment: '方向正确，但没有考虑楼道浓烟无法通行时的办法（堵门缝、在窗口发信号求救）。' } },
    ],
    events: [{ type: 'offline', position: 13, after: 30, forSeconds: 40 }],
    ip: '10.12.5.23',
    agent: CHROME_WINDOWS,
  },
  {
    username: 'linfeng',
    startedHoursAgo: 30,
    skill: 0.85,
    shorts: [
      {
        text: '一提二拔三握四压：提起灭火器，拔掉保险销，握住喷管对准火焰根部，压下压把喷射。要站在上风方向，离火 2 米左右。',
        mark: { share: 0.8, comment: '四个步骤和站位都对，注意事项（检查压力表、不要倒置等）没有写。' },
      },
      {
        text: '不乘电梯，摸门把手判断火势，烫就不开门，用湿毛巾堵住门缝，湿毛巾捂口鼻。打 119 说清楚在几楼哪个房间。在窗口挥动衣服求救，不要跳楼。',
        mark: { share: 1, comment: '防烟、报警、求救信号都写到了，很好。' },
      },
    ],
    ip: '10.20.1.8',
    agent: CHROME_MAC,
  },
  {
    username: 'liuyang',
    startedHoursAgo: 26,
    skill: 0.85,
    shorts: [
      {
        text: '一提：提起灭火器，站在上风处离火两三米；二拔：拔掉保险销；三握：握住喷管对准火焰根部；四压：压下压把左右扫射。用前看压力表在绿区。',
        mark: { share: 0.9, comment: '比上次进步很大，步骤、站位和压力检查都对。' },
      },
      {
        text: '不坐电梯。门把手烫就不要开门，用湿毛巾把门缝堵上，关窗，湿毛巾捂口鼻趴低。打 119 告诉他们 12 楼的具体位置，在窗口挥衣服求救。',
        mark: { share: 0.9, comment: '要点都有了，很好。' },
      },
    ],
    ip: '10.12.3.41',
    agent: SAFARI_IPHONE,
  },
  {
    username: 'zhouxinran',
    startedHoursAgo: 20,
    skill: 0.8,
    shorts: [
      { text: '检查压力表→提起→拔销→握管→压把，对准火焰根部左右扫射。不能对人喷射，不能倒过来用。' },
      { text: '不坐电梯，用湿毛巾捂口鼻。门把手烫就不开门，用湿毛巾堵门缝，打 119 说明在 12 楼。在窗边挥舞衣服求救。' },
    ],
    events: [
      { type: 'hidden', position: 6, after: 5, forSeconds: 35 },
      { type: 'hidden', position: 11, after: 3, forSeconds: 12 },
    ],
    ip: '10.12.3.66',
    agent: CHROME_WINDOWS,
  },
  {
    username: 'zhengyutong',
    startedHoursAgo: 6,
    skill: 0.75,
    shorts: [
      { text: '提起灭火器，拔掉保险销，握住喷管，压下压把，对准火的根部喷。站在上风口。' },
      { text: '先关门，用湿东西堵住门缝防止烟进来，然后打电话给 119 和领导，在窗口喊人。' },
    ],
    ip: '10.12.5.31',
    agent: EDGE_WINDOWS,
  },
  // 市场部, outside the demo teacher's data scope: left for the administrator to mark.
  {
    username: 'heqian',
    startedHoursAgo: 4,
    skill: 0.55,
    shorts: [{ text: '拔掉保险，按压把手，对准火苗喷。' }, { text: '弯腰捂鼻从安全通道往下走，千万不能坐电梯，也不能跳楼。' }],
    events: [{ type: 'hidden', position: 3, after: 6, forSeconds: 20 }],
    ip: '10.30.2.14',
    agent: SAFARI_IPHONE,
  },
];

/** A question of the demo bank as scoring and answering it need. */
type BankQuestion = {
  id: number;
  type: QuestionType;
  stem: string;
  options: { key: string; text: string }[];
  answer: string[] | string[][];
  blankRules: BlankRules | null;
  policy: MultiplePolicy | null;
  difficulty: number;
  tags: string[];
};

/** Deterministic values in [0, 1) (mulberry32): the same demo on every fresh start. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)] as T;

function scorable(question: BankQuestion, score: number): ScorableQuestion {
  switch (question.type) {
    case 'short':
      return { type: 'short', score };
    case 'multiple':
      return { type: 'multiple', answer: question.answer as string[], score, policy: question.policy ?? 'all' };
    case 'blank':
      return { type: 'blank', answer: question.answer as string[][], score, blankRules: question.blankRules as BlankRules };
    default:
      return { type: question.type, answer: question.answer as string[], score };
  }
}

/** Slips people make filling in a blank: a near word for a blank's answer, or the blank left empty. */
const BLANK_SLIPS: Record<string, string> = { 拔: '拉', 压: '按', 可燃物: '燃料', 助燃物: '空气', 着火源: '火' };

/** An answer to an automatically scored question: the key (or an accepted variant) when right, a plausible slip when wrong. */
function answerOf(question: BankQuestion, right: boolean, random: () => number): string | string[] {
  const keys = question.answer as string[];
  switch (question.type) {
    case 'single': {
      if (right) return keys[0] as string;
      return pick(
        question.options.map((option) => option.key).filter((key) => key !== keys[0]),
        random,
      );
    }
    case 'judge':
      return right ? (keys[0] as string) : keys[0] === 'T' ? 'F' : 'T';
    case 'multiple': {
      if (right) return [...keys];
      const others = question.options.map((option) => option.key).filter((key) => !keys.includes(key));
      // One right choice missed, or one wrong choice added: the usual near misses.
      if (others.length === 0 || random() < 0.5) return keys.filter((_key, index) => index !== Math.floor(random() * keys.length));
      return [...keys, pick(others, random)].sort();
    }
    case 'blank': {
      const accepted = question.answer as string[][];
      const given = accepted.map((alternatives) => pick(alternatives, random));
      if (right) return given;
      const slipped = Math.floor(random() * given.length);
      given[slipped] = BLANK_SLIPS[given[slipped] as string] ?? '';
      return given;
    }
    case 'short':
      throw new Error('short answers are written, not drawn');
  }
}

/** Seconds people spend on a question of each type: from, to. */
const SECONDS: Record<QuestionType, [number, number]> = { single: [15, 50], judge: [6, 20], multiple: [30, 80], blank: [20, 60], short: [150, 420] };

type PaperItem = { question: BankQuestion; section: string; score: number; optionKeys: string[] };

/**
 * The demo candidates' attempts of the exam (see DEMO_SITTINGS), with the people assigned it that
 * its department rule did not reach: inside the seed's transaction, after the demo exam.
 */
export async function insertDemoAttempts(trx: Transaction<Database>, examId: number, now: number): Promise<void> {
  const exam = await trx.selectFrom('edu_exam').selectAll().where('id', '=', examId).executeTakeFirstOrThrow();
  const users = new Map((await trx.selectFrom('sys_user').select(['id', 'username']).execute()).map((user) => [user.username, user.id]));
  const assigned = new Set((await trx.selectFrom('edu_exam_assignee').select('user_id').where('exam_id', '=', examId).execute()).map((row) => row.user_id));
  const candidates = [...new Set(DEMO_SITTINGS.map((sitting) => users.get(sitting.username)))].filter((id): id is number => id !== undefined && !assigned.has(id));
  if (candidates.length > 0) {
    await trx
      .insertInto('edu_exam_assignee')
      .values(
        candidates.map((userId) => ({
          exam_id: examId,
          user_id: userId,
          source: 'staff',
          rule_id: null,
          due_at: null,
          extra_minutes: 0,
          extra_attempts: 0,
          open_at: null,
          close_at: null,
          create_by: 'system',
          create_time: now,
          update_time: now,
        })),
      )
      .execute();
  }

  const bank = await demoBank(trx);
  const paper = JSON.parse(exam.paper) as {
    sections: { title: string; questionIds: number[]; score: number | null; draw: { tags: string[]; type: QuestionType; difficulty: number | null; count: number; score: number }[] }[];
  };
  const numbers = new Map<number, number>();
  for (const [index, sitting] of DEMO_SITTINGS.entries()) {
    const userId = users.get(sitting.username);
    if (userId === undefined) continue;
    const random = randomFrom(index + 1);
    const number = (numbers.get(userId) ?? 0) + 1;
    numbers.set(userId, number);
    const items = drawnPaper(paper, bank, random, exam.shuffle_options === 1);
    await insertSitting(trx, { examId, userId, number, sitting, items, random, now, limitMinutes: exam.limit_minutes, closeAt: exam.close_at, passScore: exam.pass_score });
  }
}

async function demoBank(trx: Transaction<Database>): Promise<Map<number, BankQuestion>> {
  const rows = await trx.selectFrom('edu_question').select(['id', 'type', 'stem_text', 'options', 'answer', 'blank_rules', 'policy', 'difficulty']).execute();
  const tags = await trx.selectFrom('edu_question_tag as qt').innerJoin('edu_tag as t', 't.id', 'qt.tag_id').select(['qt.question_id', 't.name']).execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        type: row.type as QuestionType,
        stem: row.stem_text,
        options: JSON.parse(row.options) as { key: string; text: string }[],
        answer: JSON.parse(row.answer) as string[] | string[][],
        blankRules: row.blank_rules === null ? null : (JSON.parse(row.blank_rules) as BlankRules),
        policy: row.policy as MultiplePolicy | null,
        difficulty: row.difficulty,
        tags: tags.filter((tag) => tag.question_id === row.id).map((tag) => tag.name),
      },
    ]),
  );
}

/** One paper drawn as the exams module draws it: fixed questions in order, then each section's drawn ones in random order. */
function drawnPaper(
  paper: { sections: { title: string; questionIds: number[]; score: number | null; draw: { tags: string[]; type: QuestionType; difficulty: number | null; count: number; score: number }[] }[] },
  bank: Map<number, BankQuestion>,
  random: () => number,
  shuffleOptions: boolean,
): PaperItem[] {
  const questions = [...bank.values()];
  const fixedIds = paper.sections.flatMap((section) => section.questionIds);
  const rules = paper.sections.flatMap((section) => section.draw);
  const outcome = drawQuestions(
    rules.map((rule) => ({
      count: rule.count,
      candidates: questions
        .filter((question) => question.type === rule.type && (rule.difficulty === null || question.difficulty === rule.difficulty))
        .filter((question) => rule.tags.length === 0 || question.tags.some((tag) => rule.tags.includes(tag)))
        .map((question) => question.id),
    })),
    fixedIds,
    random,
  );
  if (!outcome.ok) throw new Error('the demo bank cannot draw the demo exam');
  let ruleIndex = 0;
  return paper.sections.flatMap((section) => {
    const item = (id: number, score: number): PaperItem => {
      const question = bank.get(id) as BankQuestion;
      const keys = question.options.map((option) => option.key);
      return { question, section: section.title, score, optionKeys: shuffleOptions ? shuffled(keys, random) : keys };
    };
    const fixed = section.questionIds.map((id) => item(id, section.score ?? 0));
    const drawn = section.draw.flatMap((rule) => (outcome.drawn[ruleIndex++] as number[]).map((id) => item(id, rule.score)));
    return [...fixed, ...shuffled(drawn, random)];
  });
}

type SittingInput = {
  examId: number;
  userId: number;
  number: number;
  sitting: DemoSitting;
  items: PaperItem[];
  random: () => number;
  now: number;
  limitMinutes: number | null;
  closeAt: number | null;
  passScore: number;
};

async function insertSitting(trx: Transaction<Database>, input: SittingInput): Promise<void> {
  const { sitting, items, random, now } = input;
  const startedAt = now - sitting.startedHoursAgo * HOUR_MS;
  const deadline = attemptDeadline({ startedAt, limitMinutes: input.limitMinutes, extraMinutes: 0, closeAt: input.closeAt });
  const marked = sitting.shorts.every((short) => short.mark !== undefined);

  // A question during which the page was left stayed on screen until its signals were over.
  const leftFor = new Map<number, number>();
  for (const event of sitting.events ?? []) leftFor.set(event.position, Math.max(leftFor.get(event.position) ?? 0, event.after + (event.forSeconds ?? 0) + 5));
  let elapsed = 5;
  let shortIndex = 0;
  const answers = items.map((item, position) => {
    const [from, to] = SECONDS[item.question.type];
    // The strong are quicker on what they know; everybody takes their time writing.
    const seconds = Math.max(leftFor.get(position) ?? 0, Math.round(from + (to - from) * random() * (item.question.type === 'short' ? 1 : 1.3 - sitting.skill)));
    elapsed += seconds;
    const short = item.question.type === 'short' ? sitting.shorts[shortIndex++] : undefined;
    const response = short === undefined ? answerOf(item.question, random() < sitting.skill, random) : short.text;
    const scored = scoreResponse(scorable(item.question, item.score), response);
    const manual = short?.mark === undefined ? null : Math.round(item.score * short.mark.share * 2) / 2;
    const score = manual ?? scored.score;
    return {
      item,
      position,
      response,
      seconds,
      savedAt: startedAt + elapsed * 1000,
      // A short answer is saved as it is typed; a choice now and then changed.
      revision: short !== undefined ? 3 + Math.floor(random() * 6) : random() < 0.2 ? 2 : 1,
      autoScore: scored.score,
      manualScore: manual,
      score,
      correct: score === null ? null : score >= item.score ? (1 as const) : (0 as const),
      comment: short?.mark?.comment ?? null,
    };
  });
  const submittedAt = startedAt + (elapsed + 20 + Math.floor(random() * 40)) * 1000;
  const markedAt = Math.min(submittedAt + (2 + Math.floor(random() * 6)) * HOUR_MS, now - 10 * MINUTE_MS);
  const total = attemptScore(answers.map((answer) => answer.score));
  const { id: attemptId } = await trx
    .insertInto('edu_attempt')
    .values({
      exam_id: input.examId,
      user_id: input.userId,
      number: input.number,
      state: marked ? 'graded' : 'marking',
      started_at: startedAt,
      deadline,
      submitted_at: submittedAt,
      submitted_by: 'learner',
      score: total,
      passed: total === null ? null : passes(total, input.passScore) ? 1 : 0,
      paper: frozenPaper(items),
      ip: sitting.ip,
      agent: sitting.agent,
      update_time: marked ? markedAt : submittedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  for (const answer of answers) {
    const { id: answerId } = await trx
      .insertInto('edu_attempt_answer')
      .values({
        attempt_id: attemptId,
        question_id: answer.item.question.id,
        position: answer.position,
        max_score: answer.item.score,
        response: JSON.stringify(answer.response),
        revision: answer.revision,
        saved_at: answer.savedAt,
        seconds: answer.seconds,
        auto_score: answer.autoScore,
        manual_score: answer.manualScore,
        score: answer.score,
        correct: answer.correct,
        comment: answer.comment,
        marked_by: answer.manualScore === null ? null : DEMO_MARKER,
        marked_at: answer.manualScore === null ? null : markedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (answer.manualScore !== null) {
      await trx
        .insertInto('edu_score_change')
        .values({
          attempt_id: attemptId,
          answer_id: answerId,
          question_id: answer.item.question.id,
          kind: 'mark',
          old_score: null,
          new_score: answer.manualScore,
          reason: '',
          create_by: DEMO_MARKER,
          create_time: markedAt,
        })
        .execute();
    }
  }

  const questionAt = (position: number) => answers[Math.min(position, answers.length - 1)] as (typeof answers)[number];
  const events: { type: string; at: number; question_id: number | null; detail: string }[] = [{ type: 'start', at: startedAt, question_id: null, detail: '' }];
  for (const event of sitting.events ?? []) {
    const on = questionAt(event.position);
    // While the question was on screen: after the one before it was saved.
    const at = on.savedAt - on.seconds * 1000 + event.after * 1000;
    events.push({ type: event.type, at, question_id: on.item.question.id, detail: event.detail ?? '' });
    const pair = event.type === 'hidden' ? 'visible' : event.type === 'blur' ? 'focus' : event.type === 'offline' ? 'online' : null;
    if (pair !== null) events.push({ type: pair, at: at + (event.forSeconds ?? 10) * 1000, question_id: on.item.question.id, detail: '' });
  }
  events.push({ type: 'submit', at: submittedAt, question_id: null, detail: '' });
  await trx
    .insertInto('edu_attempt_event')
    .values(events.map((event) => ({ attempt_id: attemptId, ...event })))
    .execute();
}

/** The attempt's frozen paper as the attempts module stores it (its `FrozenPaper`): place, type, section, points, option order, blanks. */
function frozenPaper(items: PaperItem[]): string {
  return JSON.stringify({
    questions: items.map((item) => ({
      id: item.question.id,
      type: item.question.type,
      section: item.section,
      score: item.score,
      options: item.optionKeys,
      blanks: item.question.type === 'blank' ? item.question.answer.length : 0,
    })),
  });
}
