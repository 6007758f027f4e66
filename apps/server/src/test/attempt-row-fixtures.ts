import { attemptScore, passes } from '@cloud-classroom/shared/attempt-rules';
import type { AttemptResponse, AttemptState, IntegrityEventType } from '@cloud-classroom/shared/attempts';
import { scorableOf, scoreResponse } from '@cloud-classroom/shared/question-scoring';
import type { FastifyInstance } from 'fastify';

// Attempts written straight into the four attempt tables, as a submit would leave them: each
// answer scored by the question's key at the time (short answers left to a marker, but a blank one
// earns 0), the attempt
// graded with its total and pass when nothing awaits a marker, else marking. For the marking and
// report tests, which need attempts of known content without sitting the exam through the API.

export type FixtureAnswer = {
  questionId: number;
  maxScore: number;
  response: AttemptResponse;
  seconds?: number;
  /** The option order frozen in the paper (the keys as the candidate saw them); none, as a paper of no choice question. */
  optionOrder?: string[];
};

export type FixtureAttempt = {
  examId: number;
  username: string;
  answers: FixtureAnswer[];
  /** `in_progress` leaves the answers unscored; otherwise the state follows from the scores. */
  submitted?: boolean;
  number?: number;
  startedAt?: number;
  events?: IntegrityEventType[];
};

let clockTick = Date.UTC(2026, 5, 1, 9, 0, 0);

export async function userIdOf(app: FastifyInstance, username: string): Promise<number> {
  const row = await app.services.database.db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts the attempt and answers its id and its answers' ids in paper order. */
export async function insertAttempt(app: FastifyInstance, attempt: FixtureAttempt): Promise<{ id: number; answerIds: number[] }> {
  const { db } = app.services.database;
  const submitted = attempt.submitted ?? true;
  const questions = new Map((await app.services.questions.contentsOf(attempt.answers.map((answer) => answer.questionId))).map((question) => [question.id, question]));
  const scored = attempt.answers.map((answer) => {
    const question = questions.get(answer.questionId);
    if (question === undefined) throw new Error(`no question ${answer.questionId}`);
    if (!submitted) return { score: null, correct: null };
    // As the submit does: a short answer left blank earns 0 without a marker.
    const blank = answer.response === null || (typeof answer.response === 'string' && answer.response.trim() === '');
    if (question.type === 'short' && blank) return { score: 0, correct: false };
    return scoreResponse(scorableOf(question, answer.maxScore), answer.response);
  });
  const total = submitted ? attemptScore(scored.map((result) => result.score)) : null;
  const exam = await db.selectFrom('edu_exam').select('pass_score').where('id', '=', attempt.examId).executeTakeFirstOrThrow();
  const state: AttemptState = !submitted ? 'in_progress' : total === null ? 'marking' : 'graded';
  clockTick += 60_000;
  const startedAt = attempt.startedAt ?? clockTick;
  const { id } = await db
    .insertInto('edu_attempt')
    .values({
      exam_id: attempt.examId,
      user_id: await userIdOf(app, attempt.username),
      number: attempt.number ?? 1,
      state,
      started_at: startedAt,
      deadline: null,
      submitted_at: submitted ? startedAt + 30_000 : null,
      submitted_by: submitted ? 'learner' : null,
      score: total,
      passed: total === null ? null : passes(total, Number(exam.pass_score)) ? 1 : 0,
      paper: JSON.stringify({ questions: attempt.answers.map((answer) => ({ id: answer.questionId, score: answer.maxScore, options: answer.optionOrder ?? [] })) }),
      ip: '127.0.0.1',
      agent: 'test',
      update_time: startedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const answerIds: number[] = [];
  for (const [position, answer] of attempt.answers.entries()) {
    const result = scored[position] as { score: number | null; correct: boolean | null };
    const row = await db
      .insertInto('edu_attempt_answer')
      .values({
        attempt_id: id,
        question_id: answer.questionId,
        position,
        max_score: answer.maxScore,
        response: answer.response === null ? null : JSON.stringify(answer.response),
        revision: answer.response === null ? 0 : 1,
        saved_at: answer.response === null ? null : startedAt + 10_000,
        seconds: answer.seconds ?? 0,
        auto_score: result.score,
        manual_score: null,
        score: result.score,
        correct: result.correct === null ? null : result.correct ? 1 : 0,
        comment: null,
        marked_by: null,
        marked_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    answerIds.push(row.id);
  }
  const events: IntegrityEventType[] = ['start', ...(attempt.events ?? []), ...(submitted ? (['submit'] as const) : [])];
  for (const [index, type] of events.entries()) {
    await db.insertInto('edu_attempt_event').values({ attempt_id: id, type, at: startedAt + index * 1000, question_id: null, detail: '' }).execute();
  }
  return { id, answerIds };
}
