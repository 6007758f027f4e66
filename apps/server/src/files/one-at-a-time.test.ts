import { describe, expect, it } from 'vitest';
import { OneAtATime } from './one-at-a-time.js';

/** A task that starts when the queue runs it and ends when the test says. */
function task(log: string[], name: string) {
  let finish!: (fail: boolean) => void;
  const run = () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = (fail) => (fail ? reject(new Error(name)) : resolve(name));
    });
  };
  return { run, finish: (fail = false) => finish(fail) };
}

const full = () => new Error('full');
// Lets every settled promise's callbacks run.
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('one at a time', () => {
  it('starts a task only once the one before has settled, failed or not', async () => {
    const log: string[] = [];
    const queue = new OneAtATime(8);
    const [a, b, c] = [task(log, 'a'), task(log, 'b'), task(log, 'c')];
    const results = [queue.run(a.run, full), queue.run(b.run, full).catch((error: Error) => `failed ${error.message}`), queue.run(c.run, full)];
    await settle();
    expect(log).toEqual(['start a']);
    a.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    b.finish(true);
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    c.finish();
    expect(await Promise.all(results)).toEqual(['a', 'failed b', 'c']);
  });

  it('refuses a task while as many as it allows wait, and takes one again once one has started', async () => {
    const log: string[] = [];
    const queue = new OneAtATime(2);
    const [a, b, c, d] = [task(log, 'a'), task(log, 'b'), task(log, 'c'), task(log, 'd')];
    const results = [queue.run(a.run, full), queue.run(b.run, full)];
    await expect(queue.run(c.run, full)).rejects.toThrow('full');
    await settle();
    // a runs, b waits: room for one more.
    results.push(queue.run(d.run, full));
    a.finish();
    await settle();
    b.finish();
    await settle();
    d.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'd']);
    expect(log).toEqual(['start a', 'start b', 'start d']);
  });
});
