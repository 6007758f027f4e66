import type { PaperBody } from '@cloud-classroom/shared/exams';
import type { QuestionType } from '@cloud-classroom/shared/question-scoring';

// The paper as the editor holds it while it is being built: every section and rule keeps a key
// of its own (rows move, so their index cannot be their key), and a number being typed may be
// empty for a moment. What goes to the server is `paperBodyOf(draft)`.

export type DrawRuleDraft = {
  key: string;
  tags: string[];
  type: QuestionType;
  /** null: any difficulty. */
  difficulty: number | null;
  count: number | null;
  score: number | null;
};

export type SectionDraft = {
  key: string;
  title: string;
  questionIds: number[];
  /** The fixed questions' score each; null: each question's own. */
  score: number | null;
  draw: DrawRuleDraft[];
};

export type PaperDraft = { sections: SectionDraft[] };

let lastKey = 0;
/** Keys only tell rows apart within one page's life. */
export const newKey = (prefix: string) => `${prefix}-${(lastKey += 1)}`;

export const newRule = (): DrawRuleDraft => ({ key: newKey('rule'), tags: [], type: 'single', difficulty: null, count: 5, score: 2 });
export const newSection = (title: string): SectionDraft => ({ key: newKey('section'), title, questionIds: [], score: null, draw: [] });

export function paperDraftOf(paper: PaperBody): PaperDraft {
  return {
    sections: paper.sections.map((section) => ({
      key: newKey('section'),
      title: section.title,
      questionIds: [...(section.questionIds ?? [])],
      score: section.score ?? null,
      draw: (section.draw ?? []).map((rule) => ({
        key: newKey('rule'),
        tags: [...(rule.tags ?? [])],
        type: rule.type,
        difficulty: rule.difficulty ?? null,
        count: rule.count,
        score: rule.score,
      })),
    })),
  };
}

/** What the server takes; an empty number stays empty, for the server (or the check before it) to name. */
export function paperBodyOf(draft: PaperDraft): PaperBody {
  return {
    sections: draft.sections.map((section) => ({
      title: section.title,
      questionIds: section.questionIds,
      score: section.score,
      draw: section.draw.map((rule) => ({
        tags: rule.tags,
        type: rule.type,
        difficulty: rule.difficulty,
        count: rule.count as number,
        score: rule.score as number,
      })),
    })),
  };
}

/**
 * The paper the live count asks about, or none while it cannot be asked: a rule with its count
 * or score being typed, or nothing to draw at all. A title does not change what can be drawn, so
 * a section still untitled is asked about under a stand-in.
 */
export function checkablePaperOf(draft: PaperDraft): PaperBody | undefined {
  const rules = draft.sections.flatMap((section) => section.draw);
  if (rules.length === 0 || rules.some((rule) => rule.count === null || rule.score === null)) return undefined;
  const body = paperBodyOf(draft);
  return { sections: body.sections.map((section, index) => ({ ...section, title: section.title.trim() || `${index + 1}` })) };
}

/** A refusal's place in the paper: the section (0-based), and the rule or the fixed questions in it, or the paper as a whole. */
export type PaperPlace = { section?: number; rule?: number; part?: 'title' | 'questions' | 'score' };

/**
 * Where a path of the paper (`paper.sections.1.draw.0.count`, or zod's `['sections', 1, 'draw', 0]`)
 * points: the row its message is shown at.
 */
export function placeOfPath(path: readonly (string | number)[]): PaperPlace {
  const rest = path[0] === 'paper' ? path.slice(1) : path;
  if (rest[0] !== 'sections' || rest.length < 2) return {};
  const section = Number(rest[1]);
  if (!Number.isInteger(section)) return {};
  if (rest[2] === 'draw' && rest.length >= 4 && Number.isInteger(Number(rest[3]))) return { section, rule: Number(rest[3]) };
  if (rest[2] === 'title') return { section, part: 'title' };
  if (rest[2] === 'questionIds') return { section, part: 'questions' };
  if (rest[2] === 'score') return { section, part: 'score' };
  return { section };
}

/** The key a place's message is kept under. */
export function placeKey(place: PaperPlace): string {
  if (place.section === undefined) return 'paper';
  if (place.rule !== undefined) return `s${place.section}.r${place.rule}`;
  return `s${place.section}${place.part === undefined ? '' : `.${place.part}`}`;
}

/** A server message about the paper (`paper.sections.1.draw.0: only 3 match`) as its place and its text; none for other fields. */
export function paperRefusalOf(message: string): { key: string; text: string } | undefined {
  const match = /^(?:body\.)?paper((?:\.[\w]+)*): (.+)$/s.exec(message);
  if (match === null) return undefined;
  const path = (match[1] ?? '').split('.').filter((part) => part !== '');
  return { key: placeKey(placeOfPath(['paper', ...path])), text: match[2] ?? message };
}

/**
 * The full marks and the number of questions of the draft, from what the editor knows of the
 * fixed questions' own scores (a question not loaded yet counts nothing until it is).
 */
export function draftTotals(draft: PaperDraft, ownScore: (id: number) => number | undefined): { totalScore: number; questionCount: number } {
  let cents = 0;
  let questionCount = 0;
  for (const section of draft.sections) {
    for (const id of section.questionIds) {
      cents += Math.round((section.score ?? ownScore(id) ?? 0) * 100);
      questionCount += 1;
    }
    for (const rule of section.draw) {
      cents += Math.round((rule.count ?? 0) * (rule.score ?? 0) * 100);
      questionCount += rule.count ?? 0;
    }
  }
  return { totalScore: cents / 100, questionCount };
}

/** The list moved one place up (-1) or down (+1); the same list when that would leave it. */
export function moved<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= items.length) return [...items];
  const copy = [...items];
  [copy[index], copy[target]] = [copy[target] as T, copy[index] as T];
  return copy;
}
