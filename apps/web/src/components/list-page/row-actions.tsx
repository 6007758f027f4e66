import { EllipsisOutlined } from '@ant-design/icons';
import { Button, Flex, Grid, Popover, Space } from 'antd';
import { useState, type ReactNode } from 'react';
import { Permission } from '../permission';
import { useListMessages } from './list-page-messages';
import type { ToolbarAction } from './list-toolbar';
import { useConfirmDelete } from './use-confirm-delete';
import './row-actions.css';

export type RowActionsProps = {
  edit?: ToolbarAction & { onClick: () => void };
  /** E.g. `() => list.remove([row.id])`; runs after the same confirmation as the toolbar's delete. */
  del?: ToolbarAction & { onConfirm: () => Promise<unknown>; warning?: ReactNode; /** The row's name, for the question. */ name?: string };
  /** More links before edit and delete (wrap them in `<Permission>` yourself). */
  children?: ReactNode;
};

/** The buttons folded behind one "more" button: a phone has no room for them side by side. */
function FoldedActions({ children }: { children: ReactNode }) {
  const t = useListMessages();
  const [open, setOpen] = useState(false);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomLeft"
      arrow={false}
      styles={{ container: { padding: 4 } }}
      // A chosen action closes the menu; its own dialog (a confirmation, a form) takes over.
      content={
        <Flex vertical className="row-actions-folded" onClick={() => setOpen(false)}>
          {children}
        </Flex>
      }
    >
      <Button type="link" size="small" icon={<EllipsisOutlined />} aria-label={t('list.moreActions')} aria-haspopup="true" aria-expanded={open} />
    </Popover>
  );
}

/**
 * The operations cell of a row: small link buttons, each hidden without its permission. Under
 * SPEC §4's mobile width (992 px, antd's `lg`) they fold behind one "more" button.
 */
export function RowActions({ edit, del, children }: RowActionsProps) {
  const t = useListMessages();
  const confirmDelete = useConfirmDelete();
  const phone = Grid.useBreakpoint().lg === false;
  const buttons = (
    <>
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
    </>
  );
  if (phone) return <FoldedActions>{buttons}</FoldedActions>;
  return (
    <Space size={0} wrap>
      {buttons}
    </Space>
  );
}
