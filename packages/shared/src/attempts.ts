import { z } from 'zod';
import { idSchema, idTextSchema, REQUIRED } from './http.js';
import { MAX_ALTERNATIVES, MAX_BLANKS, OPTION_KEYS, optionSchema, questionTypeSchema } from './questions.js';

// Taking an exam (DESIGN §6, §7, §10): attempts with a deadline the server fixes at start and a
// paper frozen at start, answers saved one by one with revision numbers, integrity events, the
// result as the exam's review policy allows; marking by question or by attempt with audited
// overrides; regrading after a key fix; and the exam's report. The arithmetic both sides need
// (deadline, which attempt counts, review, statistics) is in `attempt-rules.ts` and
// `exam-statistics.ts`, zod-free.


/**
 * `in_progress` until submitted (by the learner, or by the server at the deadline plus the grace);
 * then `marking` while a short answer awaits a marker, `graded` once every item has a score.
 */
export const ATTEMPT_STATES = ['in_progress', 'marking', 'graded'] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];
/** Who submitted it: the learner, or the server when the deadline plus the grace had passed. */
export const ATTEMPT_SUBMITTERS = ['learner', 'server'] as const;

/** The longest text a short answer or a blank may hold. */
export const MAX_RESPONSE_TEXT = 20_000;
/** A client's revision counter: a safe integer, one more per change of the answer. */
export const MAX_REVISION = 2_147_483_647;

/**
 * A learner's answer as it travels: the chosen key (single, judge: `T`/`F`), the chosen keys
 * (multiple), one text per blank (blank), a text (short), or null to clear it. Which shape fits
 * the question is checked by the server against the question's type.
 */
export const responseSchema = z.union([
  z.string().max(MAX_RESPONSE_TEXT),
  z.array(z.string().max(Math.max(MAX_RESPONSE_TEXT / MAX_BLANKS, 1000))).max(Math.max(MAX_BLANKS, OPTION_KEYS.length, MAX_ALTERNATIVES)),
  z.null(),
]);
export type AttemptResponse = z.infer<typeof responseSchema>;

/** A question as a candidate sees it during the attempt: no key, no analysis. */
export const attemptQuestionSchema = z.object({
  id: z.number().int(),
  type: questionTypeSchema,
  /** The section it belongs to (its title). */
  section: z.string(),
  stem: z.string(),
  /** In this attempt's frozen order (keys stay the question's own). */
  options: z.array(optionSchema),
  /** A blank question's number of blanks; 0 for the other types. */
  blanks: z.number().int(),
  score: z.number(),
});
export type AttemptQuestion = z.infer<typeof attemptQuestionSchema>;

/** An answer as saved. */
export const savedAnswerSchema = z.object({
  questionId: z.number().int(),
  response: responseSchema,
  revision: z.number().int(),
  savedAt: z.string(),
});
export type SavedAnswer = z.infer<typeof savedAnswerSchema>;

/**
 * `POST api/site/exams/{id}/attempts` → 201 (a new attempt) or 200 (my open attempt, resumed):
 * the paper in its frozen order, my saved answers, and the time. `remainingMs` is what the client
 * counts down from (with its monotonic clock from the moment it got the answer), so a wrong device
 * clock changes nothing; `deadline` and `serverNow` say the same for people.
 */
export const attemptStartSchema = z.object({
  id: z.number().int(),
  examId: z.number().int(),
  title: z.string(),
  description: z.string(),
  /** Which attempt of mine this is (1, 2, …) and how many I may make. */
  number: z.number().int(),
  attemptsAllowed: z.number().int(),
  totalScore: z.number(),
  passScore: z.number(),
  startedAt: z.string(),
  /** Null: no limit and no window close (the attempt runs until submitted). */
  deadline: z.string().nullable(),
  serverNow: z.string(),
  /** Null with no deadline. */
  remainingMs: z.number().int().nullable(),
  questions: z.array(attemptQuestionSchema),
  answers: z.array(savedAnswerSchema),
});
export type AttemptStart = z.infer<typeof attemptStartSchema>;

/** `PUT api/site/attempts/{id}/answers/{questionId}`. */
export const answerParamsSchema = z.object({ id: idTextSchema, questionId: idTextSchema });
export const answerSaveSchema = z.object({
  response: responseSchema,
  /** The client's counter for this question: an older revision never overwrites a newer one. */
  revision: z.number(REQUIRED).int().min(1).max(MAX_REVISION),
  /** Seconds spent on the question since the last save (for the report's time per question). */
  seconds: z.number().int().min(0).max(86_400).default(0),
});
export type AnswerSave = z.output<typeof answerSaveSchema>;
export type AnswerSaveBody = z.input<typeof answerSaveSchema>;
/** The revision now stored (the one sent, or a newer one already there) and when it was saved. */
export const answerSavedSchema = z.object({ revision: z.number().int(), savedAt: z.string() });
export type AnswerSaved = z.infer<typeof answerSavedSchema>;

/**
 * Integrity signals: stored as a timeline for markers, never a verdict. `ip_change` and
 * `device_change` are the server's own, as are `too_many_addresses` and `too_many_devices`: once
 * an attempt has had `MAX_CLIENT_VALUES` of either, that there were more, and no more are noted.
 */
export const INTEGRITY_EVENT_TYPES = [
  'start',
  'resume',
  'hidden',
  'visible',
  'blur',
  'focus',
  'fullscreen_exit',
  'paste',
  'offline',
  'online',
  'ip_change',
  'device_change',
  'too_many_addresses',
  'too_many_devices',
  'submit',
  'auto_submit',
] as const;
export type IntegrityEventType = (typeof INTEGRITY_EVENT_TYPES)[number];
/** The types a client may report (the rest the server records itself). */
export const CLIENT_EVENT_TYPES = ['hidden', 'visible', 'blur', 'focus', 'fullscreen_exit', 'paste', 'offline', 'online'] as const;

/** `POST api/site/attempts/{id}/events` → 204: a batch of events buffered by the client. */
export const attemptEventsSchema = z.object({
  events: z
    .array(
      z.object({
        type: z.enum(CLIENT_EVENT_TYPES),
        /** When it happened, ms before the batch was sent (the client's monotonic clock): the server dates it from its own clock. */
        agoMs: z.number().int().min(0).max(86_400_000).default(0),
        /** The question shown at the time, if any. */
        questionId: idSchema.nullish().transform((id) => id ?? null),
        detail: z.string().max(200).default(''),
      }),
    )
    .min(1, 'list at least one event')
    .max(100),
});
export type AttemptEvents = z.output<typeof attemptEventsSchema>;
export type AttemptEventsBody = z.input<typeof attemptEventsSchema>;

export const attemptEventSchema = z.object({
  type: z.enum(INTEGRITY_EVENT_TYPES),
  at: z.string(),
  questionId: z.number().int().nullable(),
  detail: z.string(),
});
export type AttemptEvent = z.infer<typeof attemptEventSchema>;

/** One question of a finished attempt as its review shows it; the key and analysis only when review allows. */
export const reviewedQuestionSchema = attemptQuestionSchema.extend({
  response: responseSchema,
  /** null while not marked (a short answer), when scores are not released, or while the key is withheld (a verdict tells it). */
  earned: z.number().nullable(),
  correct: z.boolean().nullable(),
  comment: z.string().nullable(),
  answer: z.union([z.array(z.array(z.string())), z.array(z.string())]).optional(),
  analysis: z.string().optional(),
});
export type ReviewedQuestion = z.infer<typeof reviewedQuestionSchema>;

/**
 * `GET api/site/attempts/{id}` (and `POST …/submit`'s answer): my attempt's state and, as the
 * exam's review policy allows, its score and its questions with my answers, the key and the
 * analysis. `released` false: submitted, results not yet shown.
 */
export const attemptResultSchema = z.object({
  id: z.number().int(),
  examId: z.number().int(),
  title: z.string(),
  number: z.number().int(),
  state: z.enum(ATTEMPT_STATES),
  submittedBy: z.enum(ATTEMPT_SUBMITTERS).nullable(),
  startedAt: z.string(),
  deadline: z.string().nullable(),
  submittedAt: z.string().nullable(),
  totalScore: z.number(),
  passScore: z.number(),
  answeredCount: z.number().int(),
  questionCount: z.number().int(),
  /** Whether scores are shown (graded and the review policy allows). */
  released: z.boolean(),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  /** The questions with my answers, when the review policy allows; else empty. */
  questions: z.array(reviewedQuestionSchema),
  /** The questions come without the key, analyses, verdicts and comments: I may still sit the exam, or someone may (`reviewShowsKey`). */
  keyLater: z.boolean(),
  /** When the review opens, if it opens later (after the window closes). */
  reviewFrom: z.string().nullable(),
});
export type AttemptResult = z.infer<typeof attemptResultSchema>;

/** `GET api/site/exams/{id}/attempts`: my attempts of the exam, newest first, with what counts. */
export const myAttemptSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  state: z.enum(ATTEMPT_STATES),
  startedAt: z.string(),
  submittedAt: z.string().nullable(),
  released: z.boolean(),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  /** The attempt whose score counts (best, last or first, as the exam says). */
  counts: z.boolean(),
});
export type MyAttempt = z.infer<typeof myAttemptSchema>;

// ---- Marking ------------------------------------------------------------------------------------

export const MARKING_QUEUE_BY = ['question', 'attempt'] as const;

/** `GET api/marking/exams/{id}/queue?by=question|attempt&pending=true|false&questionId=&attemptId=&reveal=false`. */
export const markingQueueQuerySchema = z.object({
  by: z.enum(MARKING_QUEUE_BY).default('question'),
  /** Only the answers still to be marked (default), or every answer of the group (to revisit). */
  pending: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** The group to open: a question (by question) or an attempt (by attempt); none: the list of groups only. */
  questionId: idTextSchema.optional(),
  attemptId: idTextSchema.optional(),
  /** Show candidates' names (anonymous by default: "Candidate 7"). */
  reveal: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type MarkingQueueQuery = z.output<typeof markingQueueQuerySchema>;

/** One answer in the queue. */
export const markingItemSchema = z.object({
  answerId: z.number().int(),
  attemptId: z.number().int(),
  questionId: z.number().int(),
  /** `Candidate 7` (the attempt's anonymous label) unless names are revealed. */
  candidate: z.string(),
  type: questionTypeSchema,
  stem: z.string(),
  /** In the question's own order. */
  options: z.array(optionSchema),
  /** The keys in the order this candidate saw the options (a shuffled paper's), labelled A, B, C… by `displayedLabel`. */
  optionOrder: z.array(z.string()),
  /** The reference answer (short) or the key. */
  answer: z.union([z.array(z.array(z.string())), z.array(z.string())]),
  response: responseSchema,
  maxScore: z.number(),
  autoScore: z.number().nullable(),
  /** The score in force: the marker's (or the override's) when there is one, else the automatic one. */
  score: z.number().nullable(),
  comment: z.string().nullable(),
  markedBy: z.string().nullable(),
  markedAt: z.string().nullable(),
  /** Needs a marker (a short answer not marked yet). */
  pending: z.boolean(),
});
export type MarkingItem = z.infer<typeof markingItemSchema>;

/** A group of the queue: a question (by question) or an attempt (by attempt), with its counters. */
export const markingGroupSchema = z.object({
  /** The question's or the attempt's id. */
  id: z.number().int(),
  label: z.string(),
  total: z.number().int(),
  pending: z.number().int(),
});
export type MarkingGroup = z.infer<typeof markingGroupSchema>;

export const markingQueueSchema = z.object({
  examId: z.number().int(),
  title: z.string(),
  by: z.enum(MARKING_QUEUE_BY),
  groups: z.array(markingGroupSchema),
  /** The answers of the group asked for (none when no group was named). */
  items: z.array(markingItemSchema),
  /** Answers still to be marked across the exam. */
  pendingTotal: z.number().int(),
  /** Attempts submitted, and those graded. */
  attemptCount: z.number().int(),
  gradedCount: z.number().int(),
  /** Submitted attempts of candidates outside the reader's data scope, not counted above nor shown. */
  outsideScope: z.number().int().nonnegative(),
});
export type MarkingQueue = z.infer<typeof markingQueueSchema>;

/**
 * `PUT api/marking/answers/{answerId}` → 204: a marker's score and comment. For an answer already
 * scored (automatically or by a marker) a `reason` is required: it is an override, audited with
 * the old and new score.
 */
export const markAnswerSchema = z.object({
  score: z.number(REQUIRED).min(0).max(1000),
  comment: z.string().trim().max(2000).default(''),
  reason: z.string().trim().max(500).default(''),
});
export type MarkAnswer = z.output<typeof markAnswerSchema>;
export type MarkAnswerBody = z.input<typeof markAnswerSchema>;

/** Why a score changed: a marker's first mark, an override, or a regrade after a key fix. */
export const SCORE_CHANGE_KINDS = ['mark', 'override', 'regrade'] as const;

/** `GET api/marking/attempts/{id}`: one attempt for the marker — its answers, scores and integrity timeline. */
export const markingAttemptSchema = z.object({
  id: z.number().int(),
  examId: z.number().int(),
  candidate: z.string(),
  state: z.enum(ATTEMPT_STATES),
  startedAt: z.string(),
  submittedAt: z.string().nullable(),
  submittedBy: z.enum(ATTEMPT_SUBMITTERS).nullable(),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  items: z.array(markingItemSchema),
  events: z.array(attemptEventSchema),
  changes: z.array(
    z.object({
      questionId: z.number().int(),
      kind: z.enum(SCORE_CHANGE_KINDS),
      oldScore: z.number().nullable(),
      newScore: z.number().nullable(),
      reason: z.string(),
      by: z.string(),
      at: z.string(),
    }),
  ),
});
export type MarkingAttempt = z.infer<typeof markingAttemptSchema>;

/** `POST api/exams/{id}/regrade` → 200: attempts whose score changed, and answers rescored. */
export const regradeResultSchema = z.object({
  /** Graded attempts whose total (or pass) changed. */
  attempts: z.number().int(),
  /** Answers scored again (every submitted answer of a scored type; short answers are the markers'). */
  answers: z.number().int(),
  /** Answers whose score in force changed (one `regrade` row each in the history). */
  changed: z.number().int(),
});
export type RegradeResult = z.infer<typeof regradeResultSchema>;

// ---- Report -------------------------------------------------------------------------------------

/** `GET api/exams/{id}/report` (`/download`: the same as an .xlsx). Counted attempts only (one per person, as the exam counts). */
export const examReportSchema = z.object({
  examId: z.number().int(),
  title: z.string(),
  totalScore: z.number(),
  passScore: z.number(),
  assigned: z.number().int(),
  /** People with a counted, graded attempt. */
  graded: z.number().int(),
  /** Attempts submitted and still being marked. */
  marking: z.number().int(),
  inProgress: z.number().int(),
  passed: z.number().int(),
  /** 0…1; null with no graded attempt. */
  passRate: z.number().nullable(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  stdDev: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Score bands of a tenth of the total each: `[from, to)`, the last one closed. */
  histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
  questions: z.array(
    z.object({
      questionId: z.number().int(),
      type: questionTypeSchema,
      stemText: z.string(),
      maxScore: z.number(),
      answered: z.number().int(),
      /** Mean score ÷ max (0…1); null with no answer. */
      facility: z.number().nullable(),
      /** Upper 27 % facility − lower 27 % facility (−1…1); null with too few candidates. */
      discrimination: z.number().nullable(),
      /** Choice questions: how often each option was picked (share of those who answered). */
      options: z.array(z.object({ key: z.string(), text: z.string(), correct: z.boolean(), rate: z.number() })),
      meanSeconds: z.number().nullable(),
    }),
  ),
  departments: z.array(
    z.object({
      deptId: z.number().int().nullable(),
      deptName: z.string(),
      graded: z.number().int(),
      passed: z.number().int(),
      mean: z.number().nullable(),
    }),
  ),
  /** The counted attempts, best first. */
  candidates: z.array(
    z.object({
      attemptId: z.number().int(),
      userId: z.number().int(),
      username: z.string(),
      nickName: z.string(),
      deptName: z.string().nullable(),
      state: z.enum(ATTEMPT_STATES),
      score: z.number().nullable(),
      passed: z.boolean().nullable(),
      submittedAt: z.string().nullable(),
      /** Integrity events other than start/resume/submit: for the marker's eye, never a verdict. */
      events: z.number().int(),
    }),
  ),
});
export type ExamReport = z.infer<typeof examReportSchema>;
