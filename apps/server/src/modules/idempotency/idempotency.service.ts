import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { claimKey, deleteKey, deleteKeysBefore, findKey, storeAnswer, type KeyOwner, type StoredAnswer } from './idempotency.repo.js';

export type { KeyOwner, StoredAnswer } from './idempotency.repo.js';

/** DESIGN §11: a key and its first answer are kept a day. */
export const KEEP_KEYS_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
// A claim still unanswered after this long belongs to a process that died mid-request (its work
// was never committed): the next request with the key runs it. No request runs this long.
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
// A second request with the key of one still running waits for its answer, looking every
// POLL_MS: the database is what every process shares, so a wait on another process's request
// can only poll. After MAX_POLLS (30 s) it gives up with `busy`.
const POLL_MS = 50;
const MAX_POLLS = 600;

/**
 * What became of a request's key: it is this request's to run (`claimed`), or the first answer
 * is there to give again (`replay`), or the key came with another request (`mismatch`), or the
 * first request is still running after the wait (`busy`).
 */
export type KeyClaim = { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'mismatch' } | { kind: 'busy' };

/** The store of once-only writes (`http/idempotency.ts` says when it is asked). */
export class IdempotencyService {
  private purgedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async claim(owner: KeyOwner, requestHash: string): Promise<KeyClaim> {
    await this.purgeExpired();
    for (let polls = 0; ; polls += 1) {
      const now = this.clock.now();
      if (await claimKey(this.db, owner, requestHash, now, { expiredBefore: now - KEEP_KEYS_MS, abandonedBefore: now - ABANDONED_AFTER_MS })) return { kind: 'claimed' };
      const row = await findKey(this.db, owner);
      // Released (its first request failed on the server) since the claim was refused: take it now.
      if (row === undefined) continue;
      if (row.requestHash !== requestHash) return { kind: 'mismatch' };
      if (row.answer !== null) return { kind: 'replay', answer: row.answer };
      if (polls >= MAX_POLLS) return { kind: 'busy' };
      await sleep(POLL_MS);
    }
  }

  /** Keeps the first answer; durable before it returns, so before the answer goes out. */
  async finish(owner: KeyOwner, answer: StoredAnswer): Promise<void> {
    await storeAnswer(this.db, owner, answer);
  }

  /** Lets the key's next request run again (its first ended in a server error). */
  async release(owner: KeyOwner): Promise<void> {
    await deleteKey(this.db, owner);
  }

  // At most hourly per process, as the job runner purges its finished jobs; a key past its day
  // and not yet purged is taken over by the next claim.
  private async purgeExpired(): Promise<void> {
    const now = this.clock.now();
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    await deleteKeysBefore(this.db, now - KEEP_KEYS_MS);
  }
}
