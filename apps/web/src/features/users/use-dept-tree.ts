import type { DeptTree } from '@cloud-classroom/shared/depts';
import { mapTree, withLoadedChildren } from '@cloud-classroom/shared/tree';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { fetchDeptLevel, fetchDeptSuperior, searchDepts } from './users-api';

/** A department as antd's Tree and TreeSelect read it. */
export type DeptNode = {
  key: number;
  value: number;
  title: string;
  isLeaf: boolean;
  enabled: boolean;
  children?: DeptNode[];
};

export const DEPT_TREE_KEY = 'dept-tree';

function toNodes(depts: readonly DeptTree[], leaves = false): DeptNode[] {
  return mapTree(depts, (dept, children) => ({
    key: dept.id,
    value: dept.id,
    title: dept.name,
    isLeaf: leaves || !dept.hasChildren,
    enabled: dept.enabled,
    children,
  }));
}

/**
 * The department tree, loaded a level at a time as nodes open (the API answers one level per
 * call). `openTo` opens the tree down to those departments first (an edited user's department,
 * a role's chosen ones). `search`, when not blank, gives the matching departments as a flat list.
 */
export function useDeptTree({ openTo, search, enabled = true }: { openTo?: readonly number[]; search?: string; enabled?: boolean } = {}) {
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState<ReadonlyMap<number, DeptNode[]>>(new Map());
  const ids = openTo ?? [];
  const name = search?.trim() ?? '';

  const roots = useQuery({
    queryKey: [DEPT_TREE_KEY, 'roots', ids],
    queryFn: async () => toNodes(ids.length > 0 ? await fetchDeptSuperior(ids) : await fetchDeptLevel()),
    enabled: enabled && name === '',
  });
  const matches = useQuery({
    queryKey: [DEPT_TREE_KEY, 'search', name],
    queryFn: async () => toNodes(await searchDepts(name), true),
    enabled: enabled && name !== '',
  });

  const loadChildren = useCallback(
    async (pid: number) => {
      const children = await queryClient.fetchQuery({
        queryKey: [DEPT_TREE_KEY, 'children', pid],
        queryFn: async () => toNodes(await fetchDeptLevel(pid)),
      });
      setLoaded((current) => new Map(current).set(pid, children));
    },
    [queryClient],
  );

  const treeData = useMemo(
    () => (name === '' ? withLoadedChildren(roots.data ?? [], (node) => loaded.get(node.key)) : (matches.data ?? [])),
    [loaded, matches.data, name, roots.data],
  );

  return { treeData, loadChildren, loading: name === '' ? roots.isFetching : matches.isFetching };
}
