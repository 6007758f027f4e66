/**
 * Runs tasks one after another, each once every task before it has settled (failed or not). At
 * most `maxWaiting` wait at a time; `run` refuses one more with the error `full()` makes, so that
 * what a waiting task holds stays bounded.
 */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly maxWaiting: number) {}

  run<T>(task: () => Promise<T>, full: () => Error): Promise<T> {
    if (this.waiting >= this.maxWaiting) return Promise.reject(full());
    this.waiting += 1;
    const settled = () => {
      this.waiting -= 1;
      return task();
    };
    const result = this.last.then(settled, settled);
    this.last = result;
    return result;
  }
}
