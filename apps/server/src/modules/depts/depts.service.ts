import type { Dept, DeptCreate, DeptQuery, DeptTree, DeptUpdate } from '@cloud-classroom/shared/depts';
import type { Page } from '@cloud-classroom/shared/http';
import { buildTree, childrenByParent, descendantIds, openedTo } from '@cloud-classroom/shared/tree';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound } from '../../domain-error.js';
import type { AccessService } from '../access/access.service.js';
import {
  countDeptReferences,
  deleteDepts,
  findDeptLinks,
  findDeptNames,
  findDepts,
  insertDept,
  recountChildren,
  updateDept,
  withSubCount,
  type DeptFilter,
} from './depts.repo.js';

export class DeptService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly access: AccessService,
    private readonly clock: Clock,
  ) {}

  /** The same service inside a transaction, for callers whose checks must see its writes. */
  within(db: Kysely<Database>): DeptService {
    return db === this.db ? this : new DeptService(db, this.access.within(db), this.clock);
  }

  /** Those of `ids` that name no department. */
  async unknownIds(ids: readonly number[]): Promise<number[]> {
    const found = new Set((await findDeptLinks(this.db, ids)).map((link) => link.id));
    return ids.filter((id) => !found.has(id));
  }

  /**
   * One level of the department tree, or the departments matching a filter, within the caller's
   * data scope. With neither a parent nor a filter the answer is the top of what the caller may
   * see: the top level for an unrestricted caller, else the highest departments of their scope.
   */
  async list(query: DeptQuery, userId: number): Promise<Page<Dept>> {
    const scope = await this.access.dataScopeOf(userId);
    const filter = filterOf(query, scope);
    const browsing = query.pid === undefined && !query.name && query.enabled === undefined && query.createTime === undefined;
    if (browsing && scope.length === 0) filter.pid = null;
    if (browsing && scope.length > 0) filter.ids = await topsOf(this.db, scope);
    return findDepts(this.db, filter, query);
  }

  /** Every department matching the filter within the caller's scope, at every depth. */
  async exportRows(query: DeptQuery, userId: number): Promise<Dept[]> {
    const scope = await this.access.dataScopeOf(userId);
    return (await findDepts(this.db, filterOf(query, scope))).content;
  }

  /**
   * The tree a department picker opens on: each department's siblings and its ancestors'
   * siblings up to the top level. With `exclude`, the given departments and everything below
   * them are left out, so an edited department cannot be made its own descendant.
   */
  async superior(ids: readonly number[], exclude: boolean, userId: number): Promise<DeptTree[]> {
    const links = await findDeptLinks(this.db);
    const byId = new Map(links.map((link) => [link.id, link]));
    const missing = ids.find((id) => !byId.has(id));
    if (missing !== undefined) throw notFound(`department ${missing} not found`);
    const childrenOf = childrenByParent(links);

    const shown = openedTo(links, ids);
    const removed = new Set(exclude ? descendantIds(links, ids) : []);
    const scope = new Set(await this.access.dataScopeOf(userId));
    const kept = [...shown].filter((id) => !removed.has(id) && (scope.size === 0 || scope.has(id)));

    const { content } = await findDepts(this.db, { ids: kept });
    return buildTree(
      content.map((dept) => {
        const hidden = (childrenOf.get(dept.id) ?? []).filter((child) => removed.has(child.id)).length;
        return hidden === 0 ? dept : withSubCount(dept, dept.subCount - hidden);
      }),
    );
  }

  async create(dept: DeptCreate, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (dept.pid !== null) await requireParent(trx, dept.pid);
      await insertDept(trx, dept, by, this.clock.now());
      if (dept.pid !== null) await recountChildren(trx, dept.pid);
    });
  }

  async update(dept: DeptUpdate, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [current] = await findDeptLinks(trx, [dept.id]);
      if (current === undefined) throw notFound(`department ${dept.id} not found`);
      if (dept.pid !== null) {
        if ((await this.access.within(trx).deptSubtrees([dept.id])).includes(dept.pid)) {
          throw invalidInput('pid: a department cannot be moved under itself or one of its sub-departments');
        }
        await requireParent(trx, dept.pid);
      }
      await updateDept(trx, dept.id, dept, by, this.clock.now());
      for (const pid of new Set([current.pid, dept.pid])) if (pid !== null) await recountChildren(trx, pid);
    });
  }

  /** Deletes each department with everything below it; refused while people or roles still point there. */
  async delete(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const names = await findDeptNames(trx, unique);
      const missing = unique.find((id) => !names.has(id));
      if (missing !== undefined) throw notFound(`department ${missing} not found`);
      for (const id of unique) {
        const { users, roles } = await countDeptReferences(trx, await this.access.within(trx).deptSubtrees([id]));
        const name = names.get(id) ?? String(id);
        if (users > 0) throw conflict(`department '${name}' (or one below it) still has ${users} user(s)`);
        if (roles > 0) throw conflict(`department '${name}' (or one below it) is still in the data scope of ${roles} role(s)`);
      }
      const doomed = new Set(await this.access.within(trx).deptSubtrees(unique));
      const parents = new Set((await findDeptLinks(trx, unique)).flatMap((link) => (link.pid === null || doomed.has(link.pid) ? [] : [link.pid])));
      await deleteDepts(trx, [...doomed]);
      for (const pid of parents) await recountChildren(trx, pid);
    });
  }
}

function filterOf(query: DeptQuery, scope: readonly number[]): DeptFilter {
  return {
    name: query.name,
    enabled: query.enabled,
    pid: query.pid,
    createTime: query.createTime,
    ...(scope.length > 0 ? { ids: scope } : {}),
  };
}

/** The departments of a scope whose parent lies outside it: the roots of what the caller sees. */
async function topsOf(db: Kysely<Database>, scope: readonly number[]): Promise<number[]> {
  const inScope = new Set(scope);
  return (await findDeptLinks(db, scope)).filter((link) => link.pid === null || !inScope.has(link.pid)).map((link) => link.id);
}

async function requireParent(db: Kysely<Database>, pid: number): Promise<void> {
  if ((await findDeptLinks(db, [pid])).length === 0) throw invalidInput(`pid: department ${pid} does not exist`);
}
