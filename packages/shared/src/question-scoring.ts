// Scoring of one answer to one question (DESIGN §6, §7): pure and zod-free, so the server marks
// with it at submit and the back office's preview shows the same verdict. Scores are rounded to
// two decimals, as the wire carries them.

export const QUESTION_TYPES = ['single', 'multiple', 'judge', 'blank', 'short'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/**
 * Multiple choice: `all` — the full score only for exactly the right set; `proportional` — a
 * share per right pick, nothing if any wrong pick; `proportional_minus` — a share per right pick
 * less a share per wrong pick, never below 0.
 */
export const MULTIPLE_POLICIES = ['all', 'proportional', 'proportional_minus'] as const;
export type MultiplePolicy = (typeof MULTIPLE_POLICIES)[number];

/** The true/false question's two keys. */
export const JUDGE_KEYS = ['T', 'F'] as const;

/** How a blank's answer is compared with its accepted answers. */
export type BlankRules = {
  /** `abc` equals `ABC`. */
  ignoreCase: boolean;
  /** Full-width letters, digits and punctuation equal their half-width forms (`ＡＢＣ１` = `ABC1`). */
  ignoreWidth: boolean;
  /** Spaces before and after the answer do not count. */
  trimSpaces: boolean;
  /** No space inside the answer counts either (`H 2 O` = `H2O`). */
  ignoreInnerSpaces: boolean;
  /** The blanks may be answered in any order (each answer still fills one blank). */
  anyOrder: boolean;
};

export const DEFAULT_BLANK_RULES: BlankRules = { ignoreCase: true, ignoreWidth: true, trimSpaces: true, ignoreInnerSpaces: false, anyOrder: false };

/** What scoring needs of a question: its type, key, score and rules. */
export type ScorableQuestion =
  | { type: 'single' | 'judge'; answer: readonly string[]; score: number }
  | { type: 'multiple'; answer: readonly string[]; score: number; policy: MultiplePolicy }
  | { type: 'blank'; answer: readonly (readonly string[])[]; score: number; blankRules: BlankRules }
  | { type: 'short'; score: number };

/** A question with its key, as the bank and the staff's paper hold it. */
export type KeyedQuestion = {
  type: QuestionType;
  answer: readonly (string | readonly string[])[];
  policy?: MultiplePolicy | null;
  blankRules?: BlankRules | null;
};

/** What scoring needs of a question, at the points `score` it carries in a paper. */
export function scorableOf(question: KeyedQuestion, score: number): ScorableQuestion {
  const keys = question.answer.filter((item): item is string => typeof item === 'string');
  switch (question.type) {
    case 'single':
    case 'judge':
      return { type: question.type, answer: keys, score };
    case 'multiple':
      return { type: 'multiple', answer: keys, score, policy: question.policy ?? 'all' };
    case 'blank':
      return { type: 'blank', answer: question.answer.filter((item): item is readonly string[] => Array.isArray(item)), score, blankRules: question.blankRules ?? DEFAULT_BLANK_RULES };
    case 'short':
      return { type: 'short', score };
  }
}

/**
 * A learner's answer: the chosen key (single, judge), the chosen keys (multiple), one text per
 * blank (blank), a text (short); null when unanswered.
 */
export type QuestionResponse = string | readonly string[] | null;

export type Scored = {
  /** 0 … the question's score; null for a short answer, which people mark. */
  score: number | null;
  /** Whether it earned the full score; null for a short answer. */
  correct: boolean | null;
  /** A blank question's verdict per blank, in the question's order of blanks. */
  blanks?: boolean[];
};

// Rounded half up from the value's 12 significant digits: a share such as 2.01 / 2 is 1.005,
// which floating point holds as 1.00499…, and must still round to 1.01.
const round2 = (value: number) => Math.round(Number((value * 100).toPrecision(12))) / 100;

const asList = (response: QuestionResponse): readonly string[] => (response === null ? [] : typeof response === 'string' ? [response] : response);

export function scoreResponse(question: ScorableQuestion, response: QuestionResponse): Scored {
  switch (question.type) {
    case 'short':
      return { score: null, correct: null };
    case 'single':
    case 'judge': {
      const picked = asList(response);
      const correct = picked.length === 1 && question.answer.length === 1 && picked[0] === question.answer[0];
      return { score: correct ? question.score : 0, correct };
    }
    case 'multiple':
      return scoreMultiple(question.answer, new Set(asList(response)), question.score, question.policy);
    case 'blank':
      return scoreBlanks(question.answer, asList(response), question.score, question.blankRules);
  }
}

function scoreMultiple(answer: readonly string[], picked: ReadonlySet<string>, score: number, policy: MultiplePolicy): Scored {
  const key = new Set(answer);
  let right = 0;
  let wrong = 0;
  for (const choice of picked) {
    if (key.has(choice)) right += 1;
    else wrong += 1;
  }
  const exact = key.size > 0 && right === key.size && wrong === 0;
  if (exact) return { score, correct: true };
  if (key.size === 0) return { score: 0, correct: false };
  const share = score / key.size;
  const earned = policy === 'all' ? 0 : policy === 'proportional' ? (wrong > 0 ? 0 : right * share) : Math.max(0, (right - wrong) * share);
  return { score: round2(earned), correct: false };
}

function scoreBlanks(accepted: readonly (readonly string[])[], given: readonly string[], score: number, rules: BlankRules): Scored {
  const keys = accepted.map((alternatives) => new Set(alternatives.map((text) => normaliseBlank(text, rules))));
  const answers = given.map((text) => normaliseBlank(text, rules));
  const filled = rules.anyOrder ? matchAnyOrder(keys, answers) : keys.map((key, index) => answerMatches(key, answers[index]));
  const right = filled.filter(Boolean).length;
  if (keys.length === 0) return { score: 0, correct: false, blanks: [] };
  const correct = right === keys.length;
  return { score: correct ? score : round2((score * right) / keys.length), correct, blanks: filled };
}

function answerMatches(key: ReadonlySet<string>, answer: string | undefined): boolean {
  return answer !== undefined && answer !== '' && key.has(answer);
}

/**
 * Blanks answered in any order: each answer may fill one blank whose accepted answers include it,
 * and as many blanks as possible are filled (a matching, so `[a|b, a]` answered `a, b` fills both).
 * The same answer given twice counts once: "name two kinds" keyed as two blanks each accepting
 * every kind must not take one kind named twice.
 */
function matchAnyOrder(keys: readonly ReadonlySet<string>[], answers: readonly string[]): boolean[] {
  const blankOfAnswer = new Array<number>(answers.length).fill(-1);
  const repeated = answers.map((answer, index) => answers.indexOf(answer) !== index);
  const tryBlank = (blank: number, seen: boolean[]): boolean => {
    for (let answer = 0; answer < answers.length; answer += 1) {
      if (seen[answer] || repeated[answer] || !answerMatches(keys[blank] as ReadonlySet<string>, answers[answer])) continue;
      seen[answer] = true;
      const holder = blankOfAnswer[answer] as number;
      if (holder < 0 || tryBlank(holder, seen)) {
        blankOfAnswer[answer] = blank;
        return true;
      }
    }
    return false;
  };
  for (let blank = 0; blank < keys.length; blank += 1) tryBlank(blank, new Array<boolean>(answers.length).fill(false));
  const filled = new Array<boolean>(keys.length).fill(false);
  for (const blank of blankOfAnswer) if (blank >= 0) filled[blank] = true;
  return filled;
}

/** A blank's answer as it is compared, by the question's rules. */
export function normaliseBlank(text: string, rules: BlankRules): string {
  let result = rules.ignoreWidth ? toHalfWidth(text) : text;
  // Any run of white space (a full-width space too, once made half-width) is one space.
  result = result.replace(/\s+/gu, ' ');
  if (rules.trimSpaces || rules.ignoreInnerSpaces) result = result.trim();
  if (rules.ignoreInnerSpaces) result = result.replace(/ /g, '');
  if (rules.ignoreCase) result = result.toLocaleLowerCase('en-US');
  return result;
}

/** Full-width ASCII forms (U+FF01–U+FF5E) and the ideographic space as their half-width characters. */
function toHalfWidth(text: string): string {
  return text.replace(/[\uFF01-\uFF5E\u3000]/g, (char) => (char === '\u3000' ? ' ' : String.fromCharCode(char.charCodeAt(0) - 0xfee0)));
}
