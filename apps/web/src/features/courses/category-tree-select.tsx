import type { CategoryTree } from '@cloud-classroom/shared/courses';
import { filterTree, mapTree } from '@cloud-classroom/shared/tree';
import { useQuery } from '@tanstack/react-query';
import { TreeSelect } from 'antd';
import type { CSSProperties } from 'react';
import { categoryTreeQuery } from './courses-api';

type PickerNode = { value: number; title: string; children?: PickerNode[] };

export type CategoryTreeSelectProps = {
  value?: number | null;
  onChange?: (value: number | undefined) => void;
  id?: string;
  /** A category that may not be picked with its subtree (the one being edited cannot move under itself). */
  exclude?: number;
  /** A first choice with value 0 standing for "no parent" (the category form's top level). */
  topLabel?: string;
  placeholder?: string;
  allowClear?: boolean;
  'aria-label'?: string;
  style?: CSSProperties;
};

/** Picks a category from the whole tree (it is small), searchable by name. */
export function CategoryTreeSelect({ value, onChange, id, exclude, topLabel, placeholder, allowClear, style, ...rest }: CategoryTreeSelectProps) {
  const categories = useQuery(categoryTreeQuery());
  const nodes = mapTree(
    filterTree(categories.data ?? [], (category: CategoryTree) => category.id !== exclude),
    (category, children): PickerNode => ({ value: category.id, title: category.name, children }),
  );
  const treeData = topLabel === undefined ? nodes : [{ value: 0, title: topLabel }, ...nodes];
  return (
    <TreeSelect<number>
      id={id}
      aria-label={rest['aria-label']}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? undefined)}
      treeData={treeData}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      allowClear={allowClear}
      placeholder={placeholder}
      loading={categories.isPending}
      style={{ width: '100%', ...style }}
      styles={{ popup: { root: { maxHeight: 400, overflow: 'auto' } } }}
    />
  );
}
