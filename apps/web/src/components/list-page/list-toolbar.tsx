import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, ReloadOutlined, TableOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Popover, Space, Tooltip } from 'antd';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useState, type ReactNode } from 'react';
import { Permission } from '../permission';
import { useListMessages } from './list-page-messages';
import { useConfirmDelete } from './use-confirm-delete';

/** A toolbar button: shown only to holders of one of `permission` (an empty list shows it to everyone). */
export type ToolbarAction = { permission: readonly PermissionCheck[] };

export type ToggleableColumn = { key: string; title: string };

export type ListToolbarProps = {
  add?: ToolbarAction & { onClick: () => void };
  /** Enabled only while exactly one row is selected. */
  edit?: ToolbarAction & { onClick: () => void };
  /**
   * Deletes the selection after a confirmation naming the row (`name`, when one is selected) or
   * how many, and `warning` when there is one.
   */
  del?: ToolbarAction & { onConfirm: () => Promise<unknown>; warning?: ReactNode; name?: string };
  exportFile?: ToolbarAction & { onClick: () => Promise<unknown> };
  onRefresh?: () => void;
  refreshing?: boolean;
  selectedCount: number;
  /** Columns the person may hide; absent hides the column toggle. */
  columns?: readonly ToggleableColumn[];
  hiddenColumns?: readonly string[];
  onHiddenColumnsChange?: (hidden: string[]) => void;
  /** More buttons after the standard ones (wrap them in `<Permission>` yourself). */
  extra?: ReactNode;
};

export function ListToolbar({
  add,
  edit,
  del,
  exportFile,
  onRefresh,
  refreshing = false,
  selectedCount,
  columns,
  hiddenColumns = [],
  onHiddenColumnsChange,
  extra,
}: ListToolbarProps) {
  const t = useListMessages();
  const confirmDelete = useConfirmDelete();
  const [exporting, setExporting] = useState(false);

  const runExport = async () => {
    if (exportFile === undefined) return;
    setExporting(true);
    try {
      await exportFile.onClick();
    } catch {
      // Already notified by the http client.
    } finally {
      setExporting(false);
    }
  };

  const columnChooser = columns !== undefined && (
    <Flex vertical gap={4}>
      {columns.map((column) => (
        <Checkbox
          key={column.key}
          checked={!hiddenColumns.includes(column.key)}
          // The last visible column stays: a table without columns shows nothing to bring them back by.
          disabled={!hiddenColumns.includes(column.key) && hiddenColumns.length >= columns.length - 1}
          onChange={(event) =>
            onHiddenColumnsChange?.(
              event.target.checked ? hiddenColumns.filter((key) => key !== column.key) : [...hiddenColumns, column.key],
            )
          }
        >
          {column.title}
        </Checkbox>
      ))}
    </Flex>
  );

  return (
    // The page's buttons wrap among themselves and refresh / columns keep the top right: wrapping the
    // whole row put those two on a line of their own under a phone's first two buttons.
    <Flex className="list-toolbar" justify="space-between" align="flex-start" gap={8}>
      <Space wrap size={8} style={{ flex: 1, minWidth: 0 }}>
        {add && (
          <Permission roles={add.permission}>
            <Button type="primary" icon={<PlusOutlined />} onClick={add.onClick}>
              {t('list.add')}
            </Button>
          </Permission>
        )}
        {edit && (
          <Permission roles={edit.permission}>
            <Button icon={<EditOutlined />} disabled={selectedCount !== 1} onClick={edit.onClick}>
              {t('list.edit')}
            </Button>
          </Permission>
        )}
        {del && (
          <Permission roles={del.permission}>
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={selectedCount === 0}
              onClick={() => confirmDelete(del.name ?? selectedCount, del.onConfirm, del.warning)}
            >
              {t('list.delete')}
            </Button>
          </Permission>
        )}
        {exportFile && (
          <Permission roles={exportFile.permission}>
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void runExport()}>
              {t('list.export')}
            </Button>
          </Permission>
        )}
        {extra}
      </Space>
      <Space size={8}>
        {onRefresh && (
          <Tooltip title={t('list.refresh')}>
            <Button aria-label={t('list.refresh')} icon={<ReloadOutlined spin={refreshing} />} onClick={onRefresh} />
          </Tooltip>
        )}
        {columnChooser && (
          <Popover trigger="click" placement="bottomRight" content={columnChooser} title={t('list.columns')}>
            <Button aria-label={t('list.columns')} icon={<TableOutlined />} />
          </Popover>
        )}
      </Space>
    </Flex>
  );
}
