/**
 * Trees made of rows that name their parent (departments, menus; next categories and chapters),
 * and trees of nested nodes as the wire and the tree widgets hold them. Pure functions, generic
 * over the node type, used by the server and the web app alike.
 */

/** A row of a table that is a tree: its id and its parent's, null at the top. */
export type TreeLink = { id: number; pid: number | null };

/** A node with the nodes below it; a leaf has no `children`. */
export type TreeOf<T> = T & { children?: TreeOf<T>[] };

/** A node of a nested tree. */
export type Nested<T> = { children?: readonly T[] | undefined };

/** The rows under each parent id (null: the top level), each group in the rows' order. */
export function childrenByParent<T extends TreeLink>(rows: readonly T[]): Map<number | null, T[]> {
  const children = new Map<number | null, T[]>();
  for (const row of rows) {
    const siblings = children.get(row.pid);
    if (siblings === undefined) children.set(row.pid, [row]);
    else siblings.push(row);
  }
  return children;
}

/**
 * The rows as a tree, each under its parent in the rows' order, with `children` only where there
 * are some. A row whose parent is not among the rows starts a tree of its own (`orphans: 'root'`,
 * for a part of a tree such as a data scope), or is left out with everything below it (`'drop'`,
 * for menus: a page whose directory is not granted cannot be reached).
 */
export function buildTree<T extends TreeLink>(rows: readonly T[], { orphans = 'root' }: { orphans?: 'root' | 'drop' } = {}): TreeOf<T>[] {
  const children = childrenByParent(rows);
  const ids = new Set(rows.map((row) => row.id));
  const attach = (row: T): TreeOf<T> => {
    const below = children.get(row.id);
    return below === undefined ? { ...row } : { ...row, children: below.map(attach) };
  };
  const roots = orphans === 'root' ? rows.filter((row) => row.pid === null || !ids.has(row.pid)) : (children.get(null) ?? []);
  return roots.map(attach);
}

/** The ids of `roots` and of every row below them, ascending. A cycle in the data ends the walk, not the process. */
export function descendantIds(rows: readonly TreeLink[], roots: Iterable<number>): number[] {
  const children = childrenByParent(rows);
  const found = new Set<number>();
  const queue = [...roots];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (found.has(id)) continue;
    found.add(id);
    for (const child of children.get(id) ?? []) queue.push(child.id);
  }
  return [...found].sort((a, b) => a - b);
}

/** The ids above `id`, its parent first, up to the top. */
export function ancestorIds(rows: readonly TreeLink[], id: number): number[] {
  const parentOf = new Map(rows.map((row) => [row.id, row.pid]));
  const ancestors: number[] = [];
  for (let pid = parentOf.get(id) ?? null; pid !== null && !ancestors.includes(pid) && pid !== id; pid = parentOf.get(pid) ?? null) {
    ancestors.push(pid);
  }
  return ancestors;
}

/**
 * What a tree opened down to `ids` shows (a parent picker opening on the current parents): the
 * siblings of each of them and of each of their ancestors, up to the top level. Ids no row has
 * show nothing.
 */
export function openedTo(rows: readonly TreeLink[], ids: Iterable<number>): Set<number> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const children = childrenByParent(rows);
  const shown = new Set<number>();
  for (const id of ids) {
    const climbed = new Set<number>();
    for (let row = byId.get(id); row !== undefined && !climbed.has(row.id); row = row.pid === null ? undefined : byId.get(row.pid)) {
      climbed.add(row.id);
      for (const sibling of children.get(row.pid) ?? []) shown.add(sibling.id);
    }
  }
  return shown;
}

/** Visits every node, parents before their children, with its parent and depth (0 at the top). */
export function walkTree<T extends Nested<T>>(nodes: readonly T[], visit: (node: T, parent: T | undefined, depth: number) => void): void {
  const walk = (level: readonly T[], parent: T | undefined, depth: number) => {
    for (const node of level) {
      visit(node, parent, depth);
      walk(node.children ?? [], node, depth + 1);
    }
  };
  walk(nodes, undefined, 0);
}

/** Every node, parents before their children. */
export function flattenTree<T extends Nested<T>>(nodes: readonly T[]): T[] {
  const all: T[] = [];
  walkTree(nodes, (node) => all.push(node));
  return all;
}

/** The rows a nested tree is made of, as links, so that the row functions above apply to it. */
export function linksOf<T extends Nested<T>>(nodes: readonly T[], idOf: (node: T) => number): TreeLink[] {
  const links: TreeLink[] = [];
  walkTree(nodes, (node, parent) => links.push({ id: idOf(node), pid: parent === undefined ? null : idOf(parent) }));
  return links;
}

/** The keys of the nodes that have children: what "expand all" opens. */
export function parentKeys<T extends Nested<T>, K>(nodes: readonly T[], keyOf: (node: T) => K): K[] {
  const keys: K[] = [];
  walkTree(nodes, (node) => {
    if ((node.children?.length ?? 0) > 0) keys.push(keyOf(node));
  });
  return keys;
}

/** The tree turned node by node into another shape; `map` gets each node's children already turned. */
export function mapTree<T extends Nested<T>, U>(nodes: readonly T[], map: (node: T, children: U[] | undefined) => U): U[] {
  return nodes.map((node) => map(node, node.children === undefined ? undefined : mapTree(node.children, map)));
}

/** The tree without the nodes `keep` refuses, each taking everything below it along. */
export function filterTree<T extends Nested<T>>(nodes: readonly T[], keep: (node: T) => boolean): T[] {
  return nodes.filter(keep).map((node) => (node.children === undefined ? node : { ...node, children: filterTree(node.children, keep) }));
}

/**
 * The tree with children filled in where a node has none of its own but `loaded` has them (a
 * lazily loaded tree: the levels fetched as the user opens nodes), at any depth.
 */
export function withLoadedChildren<T extends Nested<T>>(nodes: readonly T[], loaded: (node: T) => readonly T[] | undefined): T[] {
  return nodes.map((node) => {
    const children = node.children ?? loaded(node);
    return children === undefined ? node : { ...node, children: withLoadedChildren(children, loaded) };
  });
}
