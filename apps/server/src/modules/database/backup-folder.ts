import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { formatInZone } from '@cloud-classroom/shared/calendar-day';
import { BACKUP_NAME_PATTERN, type BackupFormat, type BackupKind } from '@cloud-classroom/shared/database';
import { durableRename, syncFolder } from './backup-tools.js';

// The backups' folder, `DATA_DIR/backups`, outside what the server serves (`files/`). It is its own
// catalogue: each backup `<name>` has its facts beside it in `<name>.json`, so that restoring an
// older database does not forget the backups made since, as rows in that database would. A write
// in progress is a dot-file `.<random>.partial`, renamed once complete.

export type BackupFacts = {
  name: string;
  kind: BackupKind;
  format: BackupFormat;
  size: number;
  sha256: string;
  migrations: string[];
  note: string | null;
  createBy: string | null;
  /** Epoch ms. */
  createTime: number;
  /** A scheduled backup: the run it was made for (so a job run twice makes one). */
  scheduledFor?: number;
};

export const BACKUPS_FOLDER = 'backups';

const EXTENSIONS: Record<BackupFormat, string> = { sqlite: 'sqlite', 'pg-custom': 'dump', 'pg-plain': 'sql' };
const FACTS_SUFFIX = '.json';
const PARTIAL = /^\.[0-9a-f]{16}\.partial$/;

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * `cc-20261126-211500-123-manual.sqlite`: the organisation's wall clock, as the page shows the time
 * (the list is ordered by the facts' instant, so a clock put back an hour misorders nothing).
 */
export function backupNameOf(time: number, kind: BackupKind, format: BackupFormat, timeZone: string): string {
  return `cc-${formatInZone(time, timeZone, 'file-name')}-${pad(time % 1000, 3)}-${kind}.${EXTENSIONS[format]}`;
}

export class BackupFolder {
  readonly root: string;

  constructor(
    dataDir: string,
    private readonly timeZone: string,
  ) {
    this.root = path.join(dataDir, BACKUPS_FOLDER);
  }

  private async ensure(): Promise<void> {
    const created = await fs.promises.mkdir(this.root, { recursive: true, mode: 0o700 });
    if (created !== undefined) await syncFolder(path.dirname(this.root));
  }

  /** A fresh path to write a backup to before it is kept (`keep`) or dropped (`drop`). */
  async partial(): Promise<string> {
    await this.ensure();
    return path.join(this.root, `.${crypto.randomBytes(8).toString('hex')}.partial`);
  }

  /** The path of a kept backup, or undefined for a name that is not one. */
  pathOf(name: string): string | undefined {
    return BACKUP_NAME_PATTERN.test(name) ? path.join(this.root, name) : undefined;
  }

  async drop(partial: string): Promise<void> {
    await fs.promises.rm(partial, { force: true });
  }

  /**
   * Keeps a complete, synced file under a name of its time and kind (the next millisecond when
   * taken), its facts beside it; answers the facts.
   */
  async keep(partial: string, facts: Omit<BackupFacts, 'name' | 'size' | 'sha256'>): Promise<BackupFacts> {
    // A backup holds what the database does (password hashes, the signing secret): the server's
    // user's alone, whatever mode SQLite or pg_dump created it with.
    await fs.promises.chmod(partial, 0o600);
    const { size } = await fs.promises.stat(partial);
    const sha256 = await sha256Of(partial);
    for (let time = facts.createTime; ; time += 1) {
      const name = backupNameOf(time, facts.kind, facts.format, this.timeZone);
      const target = path.join(this.root, name);
      // A hard link fails when the name is taken, where a rename would replace the file.
      try {
        await fs.promises.link(partial, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      await fs.promises.rm(partial);
      const kept: BackupFacts = { ...facts, name, size, sha256 };
      try {
        await this.writeFacts(kept);
      } catch (error) {
        // Unlisted without its facts, the backup would only take room (a full disk's, likely).
        await this.remove([name]);
        throw error;
      }
      return kept;
    }
  }

  private async writeFacts(facts: BackupFacts): Promise<void> {
    const partial = await this.partial();
    try {
      await fs.promises.writeFile(partial, JSON.stringify(facts), { mode: 0o600, flush: true });
      await durableRename(partial, path.join(this.root, facts.name + FACTS_SUFFIX));
    } catch (error) {
      await this.drop(partial);
      throw error;
    }
  }

  /** Every kept backup (a file with its facts), newest first. */
  async list(): Promise<BackupFacts[]> {
    const entries = await fs.promises.readdir(this.root).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const names = new Set(entries);
    const backups: BackupFacts[] = [];
    for (const entry of entries) {
      if (!entry.endsWith(FACTS_SUFFIX)) continue;
      const name = entry.slice(0, -FACTS_SUFFIX.length);
      if (!BACKUP_NAME_PATTERN.test(name) || !names.has(name)) continue;
      try {
        backups.push({ ...(JSON.parse(await fs.promises.readFile(path.join(this.root, entry), 'utf8')) as BackupFacts), name });
      } catch {
        // Unreadable facts: the file stays, unlisted, for whoever looks at the folder.
      }
    }
    return backups.sort((a, b) => b.createTime - a.createTime || (a.name < b.name ? 1 : -1));
  }

  async find(name: string): Promise<BackupFacts | undefined> {
    return (await this.list()).find((backup) => backup.name === name);
  }

  /** Removes backups with their facts (the facts first: a half-removed backup is unlisted). */
  async remove(names: readonly string[]): Promise<void> {
    for (const name of names) {
      const file = this.pathOf(name);
      if (file === undefined) continue;
      await fs.promises.rm(file + FACTS_SUFFIX, { force: true });
      await fs.promises.rm(file, { force: true });
    }
    if (names.length > 0) await syncFolder(this.root).catch(() => undefined);
  }

  /** Removes writes a crash left behind, last touched before `before`. */
  async removeUnfinished(before: number): Promise<void> {
    const entries = await fs.promises.readdir(this.root).catch(() => [] as string[]);
    for (const entry of entries) {
      if (!PARTIAL.test(entry)) continue;
      const file = path.join(this.root, entry);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat !== undefined && stat.mtimeMs < before) await fs.promises.rm(file, { force: true });
    }
  }
}

export async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
