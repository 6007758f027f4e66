import type { AnswerSaved } from '@cloud-classroom/shared/attempts';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/http-client';
import { AnswerQueue, MemoryPendingSaveStore, type PendingSave, type Schedule } from './answer-queue';

/** Timers the test fires by hand: `fire(ms)` runs those of that delay, in the order scheduled. */
function manualSchedule() {
  const timers: Array<{ run: () => void; ms: number; live: boolean }> = [];
  const schedule: Schedule = (run, ms) => {
    const timer = { run, ms, live: true };
    timers.push(timer);
    return () => {
      timer.live = false;
    };
  };
  const live = () => timers.filter((timer) => timer.live);
  const fire = (ms?: number) => {
    for (const timer of live().filter((item) => ms === undefined || item.ms === ms)) {
      timer.live = false;
      timer.run();
    }
  };
  return { schedule, live, fire };
}

/** A server that answers each send when the test says so. */
function fakeServer() {
  const sent: PendingSave[] = [];
  const waiting: Array<{ save: PendingSave; resolve: (saved: AnswerSaved) => void; reject: (error: unknown) => void }> = [];
  const send = (save: PendingSave) =>
    new Promise<AnswerSaved>((resolve, reject) => {
      sent.push(save);
      waiting.push({ save, resolve, reject });
    });
  const next = () => {
    const call = waiting.shift();
    if (call === undefined) throw new Error('nothing was sent');
    return call;
  };
  return {
    sent,
    send,
    pendingCalls: () => waiting.length,
    ack: (revision?: number, savedAt = '2026-11-26 09:00:00') => {
      const call = next();
      call.resolve({ revision: revision ?? call.save.revision, savedAt });
    },
    fail: (error: unknown) => next().reject(error),
  };
}

const settle = async () => {
  for (let round = 0; round < 20; round += 1) await Promise.resolve();
};

function setup(store = new MemoryPendingSaveStore()) {
  const server = fakeServer();
  const timers = manualSchedule();
  const queue = new AnswerQueue({ attemptId: 9, store, send: server.send, schedule: timers.schedule, retryDelay: (failures) => failures * 1000 });
  return { server, timers, queue, store };
}

const briefly = (save: PendingSave) => [save.questionId, save.revision, save.response];

describe('the answer queue', () => {
  it('stores a change before sending it, and forgets it once the server has it', async () => {
    const { server, queue, store } = setup();
    expect(queue.change(1, 'A')).toBe(1);
    await settle();
    expect(server.sent.map(briefly)).toEqual([[1, 1, 'A']]);
    expect([...store.saves.values()].map(briefly)).toEqual([[1, 1, 'A']]);
    expect(queue.status().pending).toBe(1);

    server.ack(undefined, '2026-11-26 09:15:02');
    await settle();
    expect(store.saves.size).toBe(0);
    expect(queue.status()).toMatchObject({ pending: 0, offline: false, savedAt: '2026-11-26 09:15:02' });
  });

  it('sends one change at a time, oldest first, and of a question only its newest revision once the one in flight is answered', async () => {
    const { server, queue } = setup();
    queue.change(1, 'A');
    await settle();
    queue.change(2, ['A', 'C']);
    queue.change(1, 'B');
    queue.change(1, 'C');
    await settle();
    // Still waiting for the first answer: nothing else goes.
    expect(server.pendingCalls()).toBe(1);

    server.ack();
    await settle();
    server.ack();
    await settle();
    server.ack();
    await settle();
    expect(server.sent.map(briefly)).toEqual([
      [1, 1, 'A'],
      [2, 1, ['A', 'C']],
      [1, 3, 'C'],
    ]);
    expect(queue.status().pending).toBe(0);
  });

  it('waits for typing to pause, and a newer keystroke restarts the wait', async () => {
    const { server, queue, timers, store } = setup();
    queue.change(4, 'H', { debounceMs: 800 });
    queue.change(4, 'He', { debounceMs: 800 });
    await settle();
    expect(server.sent).toEqual([]);
    // Stored at once all the same: a crash while typing keeps the text.
    expect([...store.saves.values()].map(briefly)).toEqual([[4, 2, 'He']]);
    expect(timers.live()).toHaveLength(1);

    timers.fire(800);
    await settle();
    expect(server.sent.map(briefly)).toEqual([[4, 2, 'He']]);
  });

  it('retries after a network failure with growing delays, in the same order, and says it is offline meanwhile', async () => {
    const { server, queue, timers, store } = setup();
    queue.change(1, 'A');
    queue.change(2, 'B');
    await settle();
    server.fail(new HttpError(0, 'network'));
    await settle();
    expect(queue.status()).toMatchObject({ offline: true, pending: 2 });
    expect(timers.live().map((timer) => timer.ms)).toEqual([1000]);

    timers.fire(1000);
    await settle();
    server.fail(new HttpError(503, 'unavailable'));
    await settle();
    expect(timers.live().map((timer) => timer.ms)).toEqual([2000]);
    expect(store.saves.size).toBe(2);

    timers.fire(2000);
    await settle();
    server.ack();
    await settle();
    server.ack();
    await settle();
    expect(server.sent.map(briefly)).toEqual([
      [1, 1, 'A'],
      [1, 1, 'A'],
      [1, 1, 'A'],
      [2, 1, 'B'],
    ]);
    expect(queue.status()).toMatchObject({ offline: false, pending: 0 });
    expect(store.saves.size).toBe(0);
  });

  it('tries again at once when told the network is back', async () => {
    const { server, queue, timers } = setup();
    queue.change(1, 'A');
    await settle();
    server.fail(new HttpError(0, 'network'));
    await settle();
    queue.retryNow();
    await settle();
    expect(server.sent).toHaveLength(2);
    expect(timers.live()).toEqual([]);
  });

  it('keeps a change made while the previous one is in flight, when the server acknowledges the older', async () => {
    const { server, queue, store } = setup();
    queue.change(1, 'A');
    await settle();
    queue.change(1, 'B');
    await settle();
    server.ack();
    await settle();
    expect([...store.saves.values()].map(briefly)).toEqual([[1, 2, 'B']]);
    server.ack();
    await settle();
    expect(store.saves.size).toBe(0);
  });

  it('numbers later changes above a newer revision the server already holds (another device)', async () => {
    const { server, queue } = setup();
    queue.change(1, 'A');
    await settle();
    server.ack(7);
    await settle();
    expect(queue.change(1, 'B')).toBe(8);
  });

  it('starts from the server revisions and replays the stored saves that are newer, oldest change first', async () => {
    const store = new MemoryPendingSaveStore();
    await store.put({ attemptId: 9, questionId: 3, revision: 5, response: 'C', seconds: 4, seq: 12 });
    await store.put({ attemptId: 9, questionId: 1, revision: 2, response: 'old', seconds: 0, seq: 3 });
    await store.put({ attemptId: 9, questionId: 2, revision: 4, response: ['x'], seconds: 1, seq: 10 });
    await store.put({ attemptId: 8, questionId: 2, revision: 9, response: 'another attempt', seconds: 0, seq: 1 });
    const { server, queue } = setup(store);

    const replayed = await queue.restore(
      new Map([
        [1, 2],
        [3, 4],
      ]),
    );
    expect(replayed.map(briefly)).toEqual([
      [2, 4, ['x']],
      [3, 5, 'C'],
    ]);
    // What the server already has is dropped from the store.
    expect([...store.saves.values()].filter((save) => save.questionId === 1)).toEqual([]);
    await settle();
    server.ack();
    await settle();
    server.ack();
    await settle();
    expect(server.sent.map((save) => [save.questionId, save.revision, save.seconds])).toEqual([
      [2, 4, 1],
      [3, 5, 4],
    ]);
    // The counters go on from there, and a new change comes after the replayed ones.
    expect(queue.change(1, 'new')).toBe(3);
    await settle();
    expect(server.sent.at(-1)?.seq).toBe(13);
    expect([...store.saves.values()].map((save) => save.attemptId).sort()).toEqual([8, 9]);
  });

  it('takes a 409 as time up: stops sending, drops what is stored, accepts no more changes', async () => {
    const { server, queue, store } = setup();
    queue.change(1, 'A');
    queue.change(2, 'B');
    await settle();
    server.fail(new HttpError(409, 'the attempt takes no more answers'));
    await settle();
    expect(queue.status()).toMatchObject({ closed: true, pending: 0 });
    expect(store.saves.size).toBe(0);
    expect(server.sent).toHaveLength(1);
    expect(queue.change(3, 'C')).toBeUndefined();
    await expect(queue.flush()).resolves.toBe('closed');
  });

  it('drops an answer the server refuses (400) and names its question, and goes on with the others', async () => {
    const { server, queue, store } = setup();
    queue.change(1, 'Z');
    queue.change(2, 'B');
    await settle();
    server.fail(new HttpError(400, 'response: does not fit the question'));
    await settle();
    expect(queue.status().rejected).toEqual([1]);
    server.ack();
    await settle();
    expect(store.saves.size).toBe(0);
    // Answering it again clears the complaint.
    queue.change(1, 'A');
    expect(queue.status().rejected).toEqual([]);
  });

  it('flushes debounced changes at once, and says whether all arrived or the network is missing', async () => {
    const { server, queue, timers } = setup();
    queue.change(5, 'typing', { debounceMs: 800 });
    const flushed = queue.flush();
    await settle();
    expect(timers.live().filter((timer) => timer.ms === 800)).toEqual([]);
    server.ack();
    await expect(flushed).resolves.toBe('saved');

    queue.change(5, 'more');
    await settle();
    const second = queue.flush();
    server.fail(new HttpError(0, 'network'));
    await expect(second).resolves.toBe('offline');
    expect(queue.status().pending).toBe(1);
  });

  it('adds up the seconds of the changes a newer one replaced before they were sent', async () => {
    const { server, queue } = setup();
    queue.change(1, 'a', { debounceMs: 800, seconds: 3 });
    queue.change(1, 'ab', { debounceMs: 800, seconds: 2 });
    const flushed = queue.flush();
    await settle();
    expect(server.sent.map((save) => save.seconds)).toEqual([5]);
    server.ack();
    await expect(flushed).resolves.toBe('saved');
  });
});
