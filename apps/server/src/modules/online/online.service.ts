import type { OnlineQuery, OnlineSession } from '@cloud-classroom/shared/online';
import type { Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Principal, SessionService } from '../auth/session.service.js';
import type { AccessService } from '../access/access.service.js';
import { findOnlineSessions, findSessionUserIds } from './online.repo.js';

/** Why a kicked-out session ended, as its socket is told. */
export const KICKED_OUT = 'kicked-out';

export class OnlineService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionService,
    private readonly access: AccessService,
    private readonly clock: Clock,
  ) {}

  async page(query: OnlineQuery): Promise<Page<OnlineSession>> {
    return findOnlineSessions(this.db, { text: query.username, now: this.clock.now() }, { page: query.page, size: query.size });
  }

  /** Every matching live session, unpaged, for the download. */
  async all(username: string | undefined): Promise<OnlineSession[]> {
    return (await findOnlineSessions(this.db, { text: username, now: this.clock.now() }, {})).content;
  }

  /**
   * Ends these sessions now. A key that no longer names a session is no error: the session the
   * caller saw in the list may have expired or logged out since, and it is gone either way.
   * Nobody ends the session of a user more powerful than themselves: if one is listed, none ends.
   */
  async kick(keys: readonly string[], caller: Principal): Promise<void> {
    await this.access.requireOutranks(caller, await findSessionUserIds(this.db, keys));
    await this.sessions.end(keys, KICKED_OUT);
  }
}
