import { Button, Space } from 'antd';
import type { ReactNode } from 'react';
import { Permission } from '../permission';
import { useListMessages } from './list-page-messages';
import type { ToolbarAction } from './list-toolbar';
import { useConfirmDelete } from './use-confirm-delete';

export type RowActionsProps = {
  edit?: ToolbarAction & { onClick: () => void };
  /** E.g. `() => list.remove([row.id])`; runs after the same confirmation as the toolbar's delete. */
  del?: ToolbarAction & { onConfirm: () => Promise<unknown>; warning?: ReactNode; /** The row's name, for the question. */ name?: string };
  /** More links before edit and delete (wrap them in `<Permission>` yourself). */
  children?: ReactNode;
};

/** The operations cell of a row: small link buttons, each hidden without its permission. */
export function RowActions({ edit, del, children }: RowActionsProps) {
  const t = useListMessages();
  const confirmDelete = useConfirmDelete();
  return (
    <Space size={0} wrap>
      {children}
      {edit && (
        <Permission roles={edit.permission}>
          <Button type="link" size="small" onClick={edit.onClick}>
            {t('list.edit')}
          </Button>
        </Permission>
      )}
      {del && (
        <Permission roles={del.permission}>
          <Button type="link" size="small" danger onClick={() => confirmDelete(del.name ?? 1, del.onConfirm, del.warning)}>
            {t('list.delete')}
          </Button>
        </Permission>
      )}
    </Space>
  );
}
