import { CloudDownloadOutlined, DatabaseOutlined, UploadOutlined } from '@ant-design/icons';
import { BACKUP_KINDS, type Backup, type BackupKind } from '@cloud-classroom/shared/database';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Select, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission, useCheckPermission } from '../../components/permission';
import { BackupScheduleCard } from './backup-schedule-card';
import { BackupUploadDialog } from './backup-upload-dialog';
import { backupFileUrl, backupList, databaseStatusQuery, makeBackup } from './database-api';
import { useDatabaseMessages } from './database-messages';

const LIST: readonly PermissionCheck[] = ['admin', 'database:list'];
const ADD: readonly PermissionCheck[] = ['admin', 'database:add'];
const DEL: readonly PermissionCheck[] = ['admin', 'database:del'];

type BackupFilter = { kind?: BackupKind };

const KIND_COLOURS: Record<BackupKind, string> = { manual: 'blue', scheduled: 'green', uploaded: 'orange' };

/** 数据库备份: backups of the running database, made now or on the schedule, or uploaded for the offline restore. */
export default function BackupListPage() {
  const t = useDatabaseMessages();
  const { message } = App.useApp();
  const list = useListPage<Backup, BackupFilter>({ query: backupList, defaultSort: ['createTime,desc'] });
  const status = useQuery(databaseStatusQuery());
  const mayDownload = useCheckPermission()(LIST);
  const [uploading, setUploading] = useState(false);
  const [backingUp, setBackingUp] = useState(false);

  const backUpNow = async () => {
    setBackingUp(true);
    try {
      const backup = await makeBackup();
      void message.success(t('database.backedUp', { name: backup.name }));
      void list.refresh();
    } catch {
      // The HTTP client has shown why.
    } finally {
      setBackingUp(false);
    }
  };

  const columns: ListColumn<Backup>[] = [
    {
      key: 'name',
      title: t('database.name'),
      dataIndex: 'name',
      sortable: true,
      render: (name: string) =>
        mayDownload ? (
          <Typography.Link href={backupFileUrl(name)} download={name} title={t('database.download')}>
            {name}
          </Typography.Link>
        ) : (
          name
        ),
    },
    { key: 'kind', title: t('database.kind'), dataIndex: 'kind', sortable: true, render: (kind: BackupKind) => <Tag color={KIND_COLOURS[kind]}>{t(`database.kind.${kind}`)}</Tag> },
    { key: 'format', title: t('database.format'), dataIndex: 'format', render: (format: Backup['format']) => t(`database.format.${format}`), defaultHidden: true },
    { key: 'size', title: t('database.size'), dataIndex: 'size', sortable: true, render: (size: number) => formatFileSize(size) },
    {
      key: 'sha256',
      title: t('database.sha256'),
      dataIndex: 'sha256',
      render: (sha256: string) => (
        <Typography.Text code copyable={{ text: sha256 }} title={sha256}>
          {sha256.slice(0, 12)}…
        </Typography.Text>
      ),
    },
    {
      key: 'migration',
      title: t('database.migration'),
      dataIndex: 'migration',
      render: (migration: string | null, backup) => (
        <Tooltip title={backup.note}>
          <span>{migration ?? '-'}</span>
        </Tooltip>
      ),
    },
    { key: 'createBy', title: t('database.createBy'), dataIndex: 'createBy' },
    { key: 'createTime', title: t('database.createTime'), dataIndex: 'createTime', sortable: true, sortDirections: ['descend', 'ascend'] },
    {
      key: 'actions',
      title: t('database.actions'),
      fixed: 'right',
      render: (_, backup) => (
        <RowActions del={{ permission: DEL, name: backup.name, warning: t('database.deleteWarning'), onConfirm: () => list.remove([backup.name]) }}>
          {mayDownload && (
            <Button type="link" size="small" icon={<CloudDownloadOutlined />} href={backupFileUrl(backup.name)} download={backup.name} aria-label={`${t('database.download')} ${backup.name}`}>
              {t('database.download')}
            </Button>
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <>
      {status.data !== undefined && <BackupScheduleCard status={status.data} t={t} />}
      <ListPage<Backup, BackupFilter>
        list={list}
        rowKey="name"
        columns={columns}
        search={
          <SearchBar list={list}>
            <Form.Item name="kind">
              <Select
                id="backup-search-kind"
                allowClear
                placeholder={t('database.anyKind')}
                aria-label={t('database.kind')}
                options={BACKUP_KINDS.map((kind) => ({ value: kind, label: t(`database.kind.${kind}`) }))}
                style={{ width: 160, maxWidth: '100%' }}
              />
            </Form.Item>
          </SearchBar>
        }
        toolbarExtra={
          <Permission roles={ADD}>
            <Button type="primary" icon={<DatabaseOutlined />} loading={backingUp} disabled={status.data?.canBackUp === false} onClick={() => void backUpNow()}>
              {t('database.backUpNow')}
            </Button>
            <Button icon={<UploadOutlined />} onClick={() => setUploading(true)}>
              {t('database.upload')}
            </Button>
          </Permission>
        }
        del={{ permission: DEL, rowName: (backup) => backup.name, warning: t('database.deleteWarning') }}
      />
      <BackupUploadDialog open={uploading} onClose={() => setUploading(false)} onUploaded={() => void list.refresh()} t={t} />
    </>
  );
}
