/**
 * Where someone stands among roles. Levels run from 1, the most powerful, down (a higher number
 * is less powerful); `level` is the best (lowest) level of the roles held, null for none. An
 * administrator stands above every level, whatever roles they hold.
 */
export type Standing = { isAdmin: boolean; level: number | null };

/** A role, as what the rule is asked about. */
export const roleStanding = (level: number): Standing => ({ isAdmin: false, level });

/** The best (lowest) of these levels; null when there are none. */
export function bestLevel(levels: Iterable<number>): number | null {
  let best: number | null = null;
  for (const level of levels) if (best === null || level < best) best = level;
  return best;
}

/**
 * The level rule, the one place it is written: nobody manages (edits, deletes, gives, ends the
 * sessions of) a user or a role more powerful than their own best role. Administrators manage
 * everyone and are managed only by administrators; a user holding no role is outranked by
 * everyone, and outranks nobody but such users.
 */
export function mayManage(actor: Standing, target: Standing): boolean {
  if (actor.isAdmin) return true;
  if (target.isAdmin) return false;
  if (target.level === null) return true;
  return actor.level !== null && target.level >= actor.level;
}
