import { NO_REDIRECT } from '@cloud-classroom/shared/constants';
import {
  isExternalMenuPath,
  type Menu,
  type MenuInput,
  type MenuQuery,
  type MenuRoute,
} from '@cloud-classroom/shared/menus';
import { buildTree, childrenByParent, descendantIds, openedTo, type TreeLink } from '@cloud-classroom/shared/tree';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound as missing, type DomainError } from '../../domain-error.js';
import type { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import {
  deleteMenus,
  findMenuLinks,
  findMenuPermission,
  findMenus,
  findRouteMenus,
  insertMenu,
  menuValueTaken,
  recountChildren,
  updateMenu,
  type MenuFilter,
  type RouteMenuRow,
} from './menus.repo.js';

export function routesOf(rows: readonly RouteMenuRow[]): MenuRoute[] {
  const children = childrenByParent(rows);
  const routeOf = (menu: RouteMenuRow, topLevel: boolean): MenuRoute => {
    const name = menu.component_name ?? menu.title;
    const meta = { title: menu.title, titleEn: menu.title_en, icon: menu.icon, noCache: menu.cache !== 1 };
    const external = menu.i_frame === 1;
    const ownPath = menu.path ?? '';
    const path = external || !topLevel ? ownPath : `/${ownPath.replace(/^\/+/, '')}`;
    let component: string | undefined;
    if (!external) {
      if (topLevel) component = menu.component ?? 'Layout';
      else if (menu.type === 0) component = menu.component ?? 'ParentView';
      else component = menu.component ?? undefined;
    }
    const below = children.get(menu.id);
    if (below !== undefined) {
      return {
        name,
        path,
        hidden: false,
        component,
        alwaysShow: true,
        redirect: NO_REDIRECT,
        meta,
        children: below.map((child) => routeOf(child, false)),
      };
    }
    // The web app's layout renders only the children of a top-level route, so a top-level page
    // becomes a Layout holding the page as its one child.
    if (topLevel && menu.type === 1) {
      return {
        path,
        hidden: false,
        component: 'Layout',
        children: [{ name, path: external ? ownPath : 'index', hidden: false, component, meta }],
      };
    }
    return { name, path, hidden: false, component, meta };
  };
  return (children.get(null) ?? []).map((menu) => routeOf(menu, true));
}

/** The filters the query sets; a pid of 0 is the top level. */
function filterOf(query: MenuQuery): MenuFilter {
  return {
    ...(query.pid === undefined ? {} : { pid: query.pid === 0 ? null : query.pid }),
    ...(query.blurry ? { blurry: query.blurry } : {}),
    ...(query.createTime === undefined ? {} : { createTime: query.createTime }),
  };
}

/** What an update changed that the audit log shows beside the request's body. */
export type MenuChanges = { permission?: { from: string | null; to: string | null } };

function notFound(id: number): DomainError {
  return missing(`id: no menu with id ${id}`);
}

export class MenuService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly access: AccessService,
    private readonly clock: Clock,
  ) {}

  /** Direct children of `pid`; 0 or none is the top level. */
  async lazy(pid: number | undefined): Promise<Menu[]> {
    return findMenus(this.db, { pid: pid ? pid : null });
  }

  /** Without any filter only the top level, as the lazy table loads the rest on demand. */
  async list(query: MenuQuery): Promise<Menu[]> {
    const filter = filterOf(query);
    return findMenus(this.db, Object.keys(filter).length > 0 ? filter : { pid: null });
  }

  /** Every menu the list's filters match, at any level. */
  async export(query: MenuQuery): Promise<Menu[]> {
    return findMenus(this.db, filterOf(query));
  }

  /**
   * The parent picker's tree for editing these menus: the siblings of each menu and of each of
   * its ancestors, without the menus themselves (so no menu can be put under its own subtree).
   */
  async superior(ids: readonly number[]): Promise<Menu[]> {
    if (ids.length === 0) return findMenus(this.db, { pid: null });
    const all = await findMenus(this.db, {});
    const missing = ids.find((id) => !all.some((menu) => menu.id === id));
    if (missing !== undefined) throw notFound(missing);
    const picked = openedTo(all, ids);
    const excluded = new Set(ids);
    return buildTree(
      all.filter((menu) => picked.has(menu.id) && !excluded.has(menu.id)),
      { orphans: 'drop' },
    );
  }

  /** The menu's id and the ids of every menu below it. */
  async childIds(id: number): Promise<number[]> {
    const links = await findMenuLinks(this.db);
    if (!links.some((link) => link.id === id)) throw notFound(id);
    return descendantIds(links, [id]);
  }

  /** The caller's menu tree: the menus of their roles (all of them for an administrator), no buttons, nothing hidden. */
  async routes(principal: Principal): Promise<MenuRoute[]> {
    return routesOf(await findRouteMenus(this.db, principal.isAdmin ? undefined : principal.userId));
  }

  async create(input: MenuInput, principal: Principal): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.check(trx, input, await findMenuLinks(trx));
      // A menu's code reaches every role that holds the menu, so writing it is granting it.
      await this.access.within(trx).requireGrantable(principal, [input.permission], 'permission');
      await insertMenu(trx, input, principal.username, this.clock.now());
      if (input.pid !== null) await recountChildren(trx, [input.pid]);
    });
  }

  /**
   * Answers what the audit log should show beside the request: the permission code before and
   * after, when it changed. Changing the code is granting the new one to every role holding the
   * menu; leaving a code one does not hold as it is grants nothing.
   */
  async update(id: number, input: MenuInput, principal: Principal): Promise<MenuChanges> {
    return this.db.transaction().execute(async (trx) => {
      const links = await findMenuLinks(trx);
      const current = links.find((link) => link.id === id);
      const before = await findMenuPermission(trx, id);
      if (current === undefined || before === undefined) throw notFound(id);
      if (input.pid !== null && descendantIds(links, [id]).includes(input.pid)) {
        throw invalidInput('pid: a menu cannot be placed under itself or one of its sub-menus');
      }
      await this.check(trx, input, links, id);
      const codeChanged = before.permission !== input.permission;
      if (codeChanged) await this.access.within(trx).requireGrantable(principal, [input.permission], 'permission');
      await updateMenu(trx, id, input, principal.username, this.clock.now());
      const parents = [current.pid, input.pid].filter((pid): pid is number => pid !== null);
      await recountChildren(trx, [...new Set(parents)]);
      return codeChanged ? { permission: { from: before.permission, to: input.permission } } : {};
    });
  }

  /** Deletes each menu with everything below it. */
  async delete(ids: readonly number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const links = await findMenuLinks(trx);
      const byId = new Map(links.map((link) => [link.id, link]));
      const missing = ids.find((id) => !byId.has(id));
      if (missing !== undefined) throw notFound(missing);
      const doomed = new Set(descendantIds(links, ids));
      await deleteMenus(trx, [...doomed]);
      const parents = new Set(ids.map((id) => byId.get(id)?.pid ?? null));
      await recountChildren(
        trx,
        [...parents].filter((pid): pid is number => pid !== null && !doomed.has(pid)),
      );
    });
  }

  private async check(trx: Kysely<Database>, input: MenuInput, links: readonly TreeLink[], id?: number): Promise<void> {
    if (input.iFrame && !isExternalMenuPath(input.path)) {
      throw invalidInput('path: an external link must start with http:// or https://');
    }
    if (input.pid !== null && !links.some((link) => link.id === input.pid)) {
      throw invalidInput(`pid: no menu with id ${input.pid}`);
    }
    if (await menuValueTaken(trx, 'title', input.title, id)) {
      throw conflict(`title: a menu titled '${input.title}' already exists`);
    }
    if (input.componentName !== null && (await menuValueTaken(trx, 'component_name', input.componentName, id))) {
      throw conflict(`componentName: a menu with the component name '${input.componentName}' already exists`);
    }
  }
}
