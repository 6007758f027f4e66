import { describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { AnswerWriter } from './answer-writer.js';
import type { AnswerOutcome, AnswerWrite } from './attempts.repo.js';

// The batching itself, apart from any database (attempts.test.ts stores concurrent saves on a
// real one): which items go into which transaction, and when each request is answered.

const item = (questionId: number): AnswerWrite => ({ attemptId: 1, questionId, response: '"A"', revision: 1, seconds: 0 });

function recordingWriter() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const writer = new AnswerWriter(async (items, now) => {
    batches.push(items.map((entry) => entry.questionId));
    await new Promise<void>((resolve) => releases.push(resolve));
    return items.map((entry): AnswerOutcome => ({ kind: 'saved', revision: entry.revision, savedAt: now }));
  }, new SettableClock(1000));
  return { writer, batches, releases };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('AnswerWriter', () => {
  it('writes saves queued together in one batch, answering none before it is committed', async () => {
    const { writer, batches, releases } = recordingWriter();
    const answered: number[] = [];
    const saves = [1, 2, 3].map((id) => writer.save(item(id)).then(() => answered.push(id)));
    await settle();
    expect(batches).toEqual([[1, 2, 3]]);
    expect(answered).toEqual([]);
    releases[0]?.();
    await Promise.all(saves);
    expect(answered).toEqual([1, 2, 3]);
  });

  it('keeps one flush in flight: saves arriving meanwhile form the next batch', async () => {
    const { writer, batches, releases } = recordingWriter();
    const first = writer.save(item(1));
    await settle();
    const later = [writer.save(item(2)), writer.save(item(3))];
    await settle();
    expect(batches).toEqual([[1]]);
    releases[0]?.();
    await first;
    await settle();
    expect(batches).toEqual([[1], [2, 3]]);
    releases[1]?.();
    expect(await Promise.all(later)).toEqual([
      { kind: 'saved', revision: 1, savedAt: 1000 },
      { kind: 'saved', revision: 1, savedAt: 1000 },
    ]);
  });

  it('fails every save of a batch that could not be written, and goes on with the next', async () => {
    let calls = 0;
    const writer = new AnswerWriter(async (items, now) => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
      return items.map((entry): AnswerOutcome => ({ kind: 'saved', revision: entry.revision, savedAt: now }));
    }, new SettableClock(5));
    const failed = [writer.save(item(1)), writer.save(item(2))];
    await expect(Promise.all(failed)).rejects.toThrow('disk full');
    await expect(failed[1]).rejects.toThrow('disk full');
    await expect(writer.save(item(3))).resolves.toEqual({ kind: 'saved', revision: 1, savedAt: 5 });
  });
});
