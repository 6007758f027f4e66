import type { NotificationPushMessage } from '@cloud-classroom/shared/notification-kinds';
import type { Notification } from '@cloud-classroom/shared/notifications';
import type { Kysely } from 'kysely';
import type { AppDatabase, Listening } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { ServiceLog } from '../../service-log.js';
import type { SessionSockets } from '../websocket/websocket.service.js';
import { channelOf, pgNotify } from '../../db/pg-notify.js';
import { countUnread, findNotificationsByIds, type NotificationRow } from './notifications.repo.js';

/** Who was told what: [userId, notificationId] pairs, as the NOTIFY payload carries them. */
type Told = [userId: number, id: number][];

// A NOTIFY payload holds under 8000 bytes; a pair takes at most ~25.
const PAIRS_PER_NOTIFY = 250;

/**
 * Gets a notification to its person's open sockets once its write is committed, on whichever
 * process holds them. On PostgreSQL each process LISTENs on a channel of the database (its
 * schema's), and the write sends `pg_notify` inside its own transaction, which PostgreSQL
 * delivers on commit only, to every process, this one included. On SQLite there is one process:
 * the write's notifications are read back through the handle outside its transaction, which waits
 * for that transaction to end, and finds nothing if it rolled back.
 */
export class NotificationPush {
  private listening: Listening | undefined;
  private readonly channel: string;

  constructor(
    private readonly options: {
      database: AppDatabase;
      sockets: SessionSockets;
      log: ServiceLog;
      toWire: (row: NotificationRow) => Notification;
    },
  ) {
    this.channel = channelOf('notifications', options.database.schema);
  }

  private get root(): Kysely<Database> {
    return this.options.database.db;
  }

  /** Starts hearing the other processes' notifications (PostgreSQL); app start. */
  async start(): Promise<void> {
    const { listen } = this.options.database;
    if (listen === undefined || this.listening !== undefined) return;
    this.listening = await listen(this.channel, (payload) => this.deliver(JSON.parse(payload) as Told));
  }

  async close(): Promise<void> {
    await this.listening?.close();
    this.listening = undefined;
  }

  /** Called with the write's handle (its transaction, if any) right after the notifications were inserted. */
  async announce(db: Kysely<Database>, told: readonly { id: number; userId: number }[]): Promise<void> {
    if (told.length === 0) return;
    const pairs: Told = told.map(({ userId, id }) => [userId, id]);
    if (this.options.database.dialect === 'postgres') {
      for (let start = 0; start < pairs.length; start += PAIRS_PER_NOTIFY) {
        await pgNotify(db, this.channel, JSON.stringify(pairs.slice(start, start + PAIRS_PER_NOTIFY)));
      }
      return;
    }
    // Not awaited: inside the write's transaction, the root handle's read waits for it to end.
    this.deliver(pairs);
  }

  private deliver(pairs: Told): void {
    const { sockets, log } = this.options;
    const here = pairs.filter(([userId]) => sockets.holds(userId));
    if (here.length === 0) return;
    void this.send(here).catch((error: unknown) => log.warn({ err: error }, 'a notification could not be pushed'));
  }

  private async send(pairs: Told): Promise<void> {
    const rows = await findNotificationsByIds(this.root, pairs.map(([, id]) => id));
    const counts = new Map<number, number>();
    for (const row of rows.sort((a, b) => a.id - b.id)) {
      let unreadCount = counts.get(row.userId);
      if (unreadCount === undefined) {
        unreadCount = await countUnread(this.root, row.userId);
        counts.set(row.userId, unreadCount);
      }
      const message: NotificationPushMessage<Notification> = { type: 'notification', unreadCount, notification: this.options.toWire(row) };
      this.options.sockets.sendToUser(row.userId, message);
    }
  }
}
