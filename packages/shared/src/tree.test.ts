import { describe, expect, it } from 'vitest';
import {
  ancestorIds,
  buildTree,
  childrenByParent,
  descendantIds,
  filterTree,
  flattenTree,
  linksOf,
  mapTree,
  openedTo,
  parentKeys,
  walkTree,
  withLoadedChildren,
  type TreeLink,
} from './tree.js';

//   1           6
//   ├─ 2        └─ 7
//   │  └─ 4
//   └─ 3
//      └─ 5
type Row = TreeLink & { name: string };
const ROWS: Row[] = [
  { id: 1, pid: null, name: 'a' },
  { id: 3, pid: 1, name: 'c' },
  { id: 2, pid: 1, name: 'b' },
  { id: 4, pid: 2, name: 'd' },
  { id: 5, pid: 3, name: 'e' },
  { id: 6, pid: null, name: 'f' },
  { id: 7, pid: 6, name: 'g' },
];

/** A tree as `id(children…)` text, to compare shapes at a glance. */
type Shape = { id: number; children?: Shape[] };
const shape = (nodes: readonly Shape[]): string =>
  nodes.map((node) => (node.children === undefined ? `${node.id}` : `${node.id}(${shape(node.children)})`)).join(' ');

describe('childrenByParent', () => {
  it('groups rows under their parent in the rows’ order', () => {
    const children = childrenByParent(ROWS);
    expect(children.get(null)?.map((row) => row.id)).toEqual([1, 6]);
    expect(children.get(1)?.map((row) => row.id)).toEqual([3, 2]);
    expect(children.get(4)).toBeUndefined();
  });
});

describe('buildTree', () => {
  it.each([
    { rows: ROWS, orphans: 'root' as const, tree: '1(3(5) 2(4)) 6(7)' },
    { rows: [], orphans: 'root' as const, tree: '' },
    // A part of the tree (a data scope): the highest rows of it are its roots.
    { rows: ROWS.filter((row) => [2, 4, 5, 7].includes(row.id)), orphans: 'root' as const, tree: '2(4) 5 7' },
    // Menus: what hangs below a missing parent cannot be reached.
    { rows: ROWS.filter((row) => [1, 2, 4, 5, 7].includes(row.id)), orphans: 'drop' as const, tree: '1(2(4))' },
    { rows: ROWS, orphans: 'drop' as const, tree: '1(3(5) 2(4)) 6(7)' },
  ])('builds $tree (orphans: $orphans)', ({ rows, orphans, tree }) => {
    expect(shape(buildTree(rows, { orphans }))).toBe(tree);
  });

  it('keeps each row’s fields, gives leaves no children and leaves the rows as they were', () => {
    const rows = ROWS.map((row) => ({ ...row }));
    const [root] = buildTree(rows);
    expect(root).toMatchObject({ id: 1, pid: null, name: 'a' });
    expect(root?.children?.[0]?.children?.[0]).toEqual({ id: 5, pid: 3, name: 'e' });
    expect(rows).toEqual(ROWS);
  });
});

describe('descendantIds', () => {
  it.each([
    { roots: [1], ids: [1, 2, 3, 4, 5] },
    { roots: [2], ids: [2, 4] },
    { roots: [4], ids: [4] },
    { roots: [2, 3], ids: [2, 3, 4, 5] },
    { roots: [1, 2], ids: [1, 2, 3, 4, 5] },
    { roots: [], ids: [] },
    // An id no row has is still itself: the caller decides whether that is an error.
    { roots: [99], ids: [99] },
  ])('of $roots is $ids', ({ roots, ids }) => {
    expect(descendantIds(ROWS, roots)).toEqual(ids);
  });

  it('ends on a cycle in the data', () => {
    const cycle: TreeLink[] = [
      { id: 1, pid: 2 },
      { id: 2, pid: 1 },
    ];
    expect(descendantIds(cycle, [1])).toEqual([1, 2]);
    expect(ancestorIds(cycle, 1)).toEqual([2]);
  });
});

describe('ancestorIds', () => {
  it.each([
    { id: 5, ids: [3, 1] },
    { id: 4, ids: [2, 1] },
    { id: 1, ids: [] },
    { id: 99, ids: [] },
  ])('of $id is $ids', ({ id, ids }) => {
    expect(ancestorIds(ROWS, id)).toEqual(ids);
  });
});

describe('openedTo', () => {
  it.each([
    { ids: [4], shown: [1, 2, 3, 4, 6] },
    { ids: [5], shown: [1, 2, 3, 5, 6] },
    { ids: [1], shown: [1, 6] },
    { ids: [4, 7], shown: [1, 2, 3, 4, 6, 7] },
    { ids: [], shown: [] },
    { ids: [99], shown: [] },
  ])('down to $ids shows $shown', ({ ids, shown }) => {
    expect([...openedTo(ROWS, ids)].sort((a, b) => a - b)).toEqual(shown);
  });
});

describe('nested trees', () => {
  const tree = buildTree(ROWS);

  it('walks parents before children, with parent and depth', () => {
    const seen: string[] = [];
    walkTree(tree, (node, parent, depth) => seen.push(`${node.id}<${parent?.id ?? '-'}@${depth}`));
    expect(seen).toEqual(['1<-@0', '3<1@1', '5<3@2', '2<1@1', '4<2@2', '6<-@0', '7<6@1']);
  });

  it('flattens in the same order', () => {
    expect(flattenTree(tree).map((node) => node.id)).toEqual([1, 3, 5, 2, 4, 6, 7]);
  });

  it('gives back the links it was built from', () => {
    const byId = (a: TreeLink, b: TreeLink) => a.id - b.id;
    expect(linksOf(tree, (node) => node.id).sort(byId)).toEqual(ROWS.map(({ id, pid }) => ({ id, pid })).sort(byId));
  });

  it.each([
    { nodes: tree, keys: [1, 3, 2, 6] },
    { nodes: [], keys: [] },
    { nodes: [{ id: 1, children: [] }], keys: [] },
  ])('opens $keys to expand all', ({ nodes, keys }) => {
    expect(parentKeys(nodes as Shape[], (node) => node.id)).toEqual(keys);
  });

  it('maps node by node, children first', () => {
    type Picker = { value: number; title: string; children?: Picker[] };
    const picker = mapTree(tree, (node, children): Picker => ({ value: node.id, title: node.name, ...(children && { children }) }));
    expect(picker[0]).toEqual({
      value: 1,
      title: 'a',
      children: [
        { value: 3, title: 'c', children: [{ value: 5, title: 'e' }] },
        { value: 2, title: 'b', children: [{ value: 4, title: 'd' }] },
      ],
    });
  });

  it.each([
    { drop: 3, tree: '1(2(4)) 6(7)' },
    { drop: 1, tree: '6(7)' },
    // A parent keeps its (now empty) list: it had children, they are only hidden.
    { drop: 7, tree: '1(3(5) 2(4)) 6()' },
    { drop: 99, tree: '1(3(5) 2(4)) 6(7)' },
  ])('filtering out $drop leaves $tree', ({ drop, tree: want }) => {
    expect(shape(filterTree(tree, (node) => node.id !== drop))).toBe(want);
  });

  it.each<{ loaded: Record<number, number[]>; roots?: Shape[]; tree: string }>([
    { loaded: {}, tree: '1 6' },
    { loaded: { 1: [2, 3] }, tree: '1(2 3) 6' },
    { loaded: { 1: [2, 3], 2: [4] }, tree: '1(2(4) 3) 6' },
    // A node that has children of its own keeps them.
    { loaded: { 1: [2, 3], 2: [4] }, roots: [{ id: 1, children: [{ id: 9 }] }, { id: 6 }], tree: '1(9) 6' },
  ])('fills in loaded levels: $tree', ({ loaded, roots, tree: want }) => {
    const levels = new Map(Object.entries(loaded).map(([id, ids]) => [Number(id), ids.map((child): Shape => ({ id: child }))]));
    const nodes: Shape[] = roots ?? [{ id: 1 }, { id: 6 }];
    expect(shape(withLoadedChildren(nodes, (node) => levels.get(node.id)))).toBe(want);
  });
});
