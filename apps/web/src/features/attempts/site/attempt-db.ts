import { MemoryPendingSaveStore, type PendingSave, type PendingSaveStore } from './answer-queue';
import { MemoryEventStore, type BufferedEvent, type EventStore } from './event-buffer';

/**
 * The browser's IndexedDB as the attempt pages' stores: pending answers (one per attempt and
 * question, the newest) and integrity events waiting to be sent. They outlive a reload, a crash
 * and a lost network. Where IndexedDB cannot be opened (some private modes, the tests' jsdom)
 * the stores live in memory: answers still reach the server, only a reload while offline loses
 * what was not sent.
 */

const DB_NAME = 'cloud-classroom-attempts';
const ANSWERS = 'answers';
const EVENTS = 'events';

export type AttemptStores = { answers: PendingSaveStore; events: EventStore; durable: boolean };

const done = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

const committed = (transaction: IDBTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });

function openDatabase(): Promise<IDBDatabase> {
  const request = indexedDB.open(DB_NAME, 1);
  request.onupgradeneeded = () => {
    const db = request.result;
    db.createObjectStore(ANSWERS, { keyPath: ['attemptId', 'questionId'] });
    db.createObjectStore(EVENTS, { keyPath: 'key', autoIncrement: true }).createIndex('attemptId', 'attemptId');
  };
  return done(request);
}

class IdbPendingSaveStore implements PendingSaveStore {
  constructor(private readonly db: IDBDatabase) {}

  async list(attemptId: number): Promise<PendingSave[]> {
    const range = IDBKeyRange.bound([attemptId, -Infinity], [attemptId, Infinity]);
    return done(this.db.transaction(ANSWERS).objectStore(ANSWERS).getAll(range) as IDBRequest<PendingSave[]>);
  }

  async put(save: PendingSave): Promise<void> {
    const transaction = this.db.transaction(ANSWERS, 'readwrite');
    transaction.objectStore(ANSWERS).put(save);
    await committed(transaction);
  }

  async remove(attemptId: number, questionId: number, revision: number): Promise<void> {
    // Read and delete in one transaction: a newer revision stored meanwhile must stay.
    const transaction = this.db.transaction(ANSWERS, 'readwrite');
    const store = transaction.objectStore(ANSWERS);
    const stored = (await done(store.get([attemptId, questionId]))) as PendingSave | undefined;
    if (stored !== undefined && stored.revision <= revision) store.delete([attemptId, questionId]);
    await committed(transaction);
  }

  async clear(attemptId: number): Promise<void> {
    const transaction = this.db.transaction(ANSWERS, 'readwrite');
    transaction.objectStore(ANSWERS).delete(IDBKeyRange.bound([attemptId, -Infinity], [attemptId, Infinity]));
    await committed(transaction);
  }
}

class IdbEventStore implements EventStore {
  constructor(private readonly db: IDBDatabase) {}

  async add(event: BufferedEvent): Promise<number> {
    const { key: _key, ...fields } = event;
    const transaction = this.db.transaction(EVENTS, 'readwrite');
    const key = done(transaction.objectStore(EVENTS).add(fields));
    await committed(transaction);
    return (await key) as number;
  }

  async list(attemptId: number): Promise<BufferedEvent[]> {
    return done(this.db.transaction(EVENTS).objectStore(EVENTS).index('attemptId').getAll(attemptId) as IDBRequest<BufferedEvent[]>);
  }

  async remove(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    const transaction = this.db.transaction(EVENTS, 'readwrite');
    const store = transaction.objectStore(EVENTS);
    for (const key of keys) store.delete(key);
    await committed(transaction);
  }
}

let opened: Promise<AttemptStores> | undefined;

/** The stores, opened once per page load. */
export function openAttemptStores(): Promise<AttemptStores> {
  opened ??= (async () => {
    try {
      if (typeof indexedDB === 'undefined') throw new Error('no IndexedDB');
      const db = await openDatabase();
      return { answers: new IdbPendingSaveStore(db), events: new IdbEventStore(db), durable: true };
    } catch {
      return { answers: new MemoryPendingSaveStore(), events: new MemoryEventStore(), durable: false };
    }
  })();
  return opened;
}
