import type { Dept, DeptTree } from '@cloud-classroom/shared/depts';
import { withLoadedChildren } from '@cloud-classroom/shared/tree';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { deptPickerChildrenQuery, deptPickerRootsQuery, deptPickerSearchQuery } from './users-api';

/** A department as antd's Tree and TreeSelect read it. */
export type DeptNode = {
  key: number;
  value: number;
  title: string;
  isLeaf: boolean;
  enabled: boolean;
  children?: DeptNode[];
};

function toNodes(depts: readonly (Dept | DeptTree)[], leaves = false): DeptNode[] {
  return depts.map((dept) => ({
    key: dept.id,
    value: dept.id,
    title: dept.name,
    isLeaf: leaves || !dept.hasChildren,
    enabled: dept.enabled,
    children: 'children' in dept && dept.children !== undefined ? toNodes(dept.children) : undefined,
  }));
}

// Module-level, so the queries' `select` keeps its result between renders.
const branchNodes = (depts: readonly (Dept | DeptTree)[]) => toNodes(depts);
const leafNodes = (depts: readonly Dept[]) => toNodes(depts, true);


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

  const roots = useQuery({ ...deptPickerRootsQuery(ids), select: branchNodes, enabled: enabled && name === '' });
  const matches = useQuery({ ...deptPickerSearchQuery(name), select: leafNodes, enabled: enabled && name !== '' });

  const loadChildren = useCallback(
    async (pid: number) => {
      const children = toNodes(await queryClient.fetchQuery(deptPickerChildrenQuery(pid)));
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
