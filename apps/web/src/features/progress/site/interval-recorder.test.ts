import { describe, expect, it } from 'vitest';
import { IntervalRecorder } from './interval-recorder';

/** A script of what the video did: a `timeupdate` at a position while playing, or an interruption. */
type Step = number | 'pause' | 'seek' | 'take';

function replay(steps: readonly Step[]): Array<Array<readonly [number, number]>> {
  const recorder = new IntervalRecorder();
  const taken: Array<Array<readonly [number, number]>> = [];
  for (const step of steps) {
    if (step === 'take') taken.push(recorder.take());
    else if (step === 'pause' || step === 'seek') recorder.interrupt();
    else recorder.playedTo(step);
  }
  taken.push(recorder.take());
  return taken;
}

describe('the interval recorder', () => {
  it.each<{ name: string; steps: Step[]; expected: Array<Array<[number, number]>> }>([
    { name: 'continuous play at 1× is one interval', steps: [0, 0.25, 0.5, 0.75, 1, 1.25], expected: [[[0, 1.25]]] },
    { name: 'continuous play at 2× (0.5 s per update) is one interval', steps: [10, 10.5, 11, 11.5, 12], expected: [[[10, 12]]] },
    { name: 'a step of exactly 1.5 s still counts as playing on', steps: [0, 1.5, 3], expected: [[[0, 3]]] },
    { name: 'a forward jump over 1.5 s is a seek: the stretch jumped over is not watched', steps: [0, 1, 2, 30, 31, 32], expected: [[[0, 2], [30, 32]]] },
    { name: 'a jump back starts a new interval, merged with what it overlaps', steps: [10, 11, 12, 5, 6, 7], expected: [[[5, 7], [10, 12]]] },
    { name: 'a jump back into watched ground merges', steps: [0, 1, 2, 3, 1.2, 2, 2.8, 3.5, 4], expected: [[[0, 4]]] },
    { name: 'nothing is counted across a pause, even when the position goes on', steps: [0, 1, 2, 'pause', 2, 3, 4], expected: [[[0, 4]]] },
    { name: 'a pause and a seek forward within 1.5 s do not join the gap', steps: [0, 1, 'seek', 2.4, 3.4], expected: [[[0, 1], [2.4, 3.4]]] },
    { name: 'a single update is no watching at all', steps: [5], expected: [[]] },
    { name: 'updates while paused are not recorded', steps: ['pause', 'pause'], expected: [[]] },
    { name: 'negative or non-finite positions are ignored', steps: [0, 1, Number.NaN, -3, 2], expected: [[[0, 2]]] },
    {
      name: 'taking while playing splits without losing or counting twice',
      steps: [0, 1, 2, 'take', 3, 4, 'take', 5],
      expected: [[[0, 2]], [[2, 4]], [[4, 5]]],
    },
    { name: 'taking twice in a row gives nothing the second time', steps: [0, 1, 'take', 'take'], expected: [[[0, 1]], [], []] },
    {
      name: 'a seek right after taking starts a new interval',
      steps: [0, 1, 'take', 'seek', 20, 21],
      expected: [[[0, 1]], [[20, 21]]],
    },
  ])('$name', ({ steps, expected }) => {
    expect(replay(steps)).toEqual(expected);
  });
});
