import { QUESTION_TYPES } from '@cloud-classroom/shared/question-scoring';
import { questionCreateSchema } from '@cloud-classroom/shared/questions';
import { describe, expect, it } from 'vitest';
import { demoQuestionRow } from './demo-exams.js';
import { DEMO_QUESTIONS } from './demo-questions.js';

// The demo bank as data; what the seed makes of it in a database (the exam's draw among it) is
// checked by the seed command's test.

describe('the demo question bank', () => {
  it.each(DEMO_QUESTIONS.map((question) => [question.stem, question] as const))('%s is a valid question, stored as the API would store it', (_, question) => {
    const row = demoQuestionRow(question);
    const body = {
      type: row.type,
      stem: row.stem,
      options: JSON.parse(row.options) as unknown,
      answer: JSON.parse(row.answer) as unknown,
      blankRules: row.blank_rules === null ? null : (JSON.parse(row.blank_rules) as unknown),
      analysis: row.analysis,
      difficulty: row.difficulty,
      tags: question.tags,
      score: row.score,
      policy: row.policy,
    };
    const parsed = questionCreateSchema.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toEqual(body);
    expect(row.stem_text).toBe(question.stem);
    expect(question.analysis).not.toBe('');
    expect(question.tags.length).toBeGreaterThan(0);
  });

  it('has every type, difficulty and policy, and no two questions alike', () => {
    expect(DEMO_QUESTIONS.length).toBeGreaterThanOrEqual(60);
    const count = (pick: (question: (typeof DEMO_QUESTIONS)[number]) => unknown) => new Set(DEMO_QUESTIONS.map(pick));
    expect(count((question) => question.type)).toEqual(new Set(QUESTION_TYPES));
    expect(count((question) => question.difficulty)).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(count((question) => (question.type === 'multiple' ? question.policy : null))).toEqual(new Set([null, 'all', 'proportional', 'proportional_minus']));
    expect(DEMO_QUESTIONS.filter((question) => question.type === 'short').length).toBeGreaterThanOrEqual(2);
    expect(DEMO_QUESTIONS.some((question) => question.type === 'blank' && question.blankRules?.anyOrder === true)).toBe(true);
    expect(DEMO_QUESTIONS.some((question) => question.type === 'blank' && question.answer.length > 1)).toBe(true);
    expect(DEMO_QUESTIONS.some((question) => question.type === 'blank' && question.answer.some((accepted) => accepted.length > 1))).toBe(true);
    expect(new Set(DEMO_QUESTIONS.map((question) => demoQuestionRow(question).stem_key)).size).toBe(DEMO_QUESTIONS.length);
  });

  it('has the exam’s fixed questions on the course’s subject: five of four types, then two short answers', () => {
    const required = DEMO_QUESTIONS.filter((question) => question.inExam === 'required');
    expect(required.length).toBe(5);
    expect(new Set(required.map((question) => question.type)).size).toBeGreaterThanOrEqual(4);
    expect(required.every((question) => question.type !== 'short')).toBe(true);
    const short = DEMO_QUESTIONS.filter((question) => question.inExam === 'short');
    expect(short.map((question) => question.type)).toEqual(['short', 'short']);
    const fireSafety = ['灭火器', '火灾逃生', '火灾预防', '消防设施'];
    expect([...required, ...short].every((question) => question.tags.some((tag) => fireSafety.includes(tag)))).toBe(true);
  });
});
