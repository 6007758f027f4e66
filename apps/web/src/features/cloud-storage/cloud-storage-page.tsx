import { CloudSyncOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import type { CloudFile } from '@cloud-classroom/shared/cloud-storage';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Typography } from 'antd';
import { useState } from 'react';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission } from '../../components/permission';
import { checkCloudConfig, cloudFileLink, cloudFileList, cloudKeys, fetchCloudConfig, syncCloudFiles } from './cloud-storage-api';
import { CloudConfigDialog, CloudUploadDialog } from './cloud-storage-dialogs';
import { useCloudStorageMessages } from './cloud-storage-messages';

const ADD: readonly PermissionCheck[] = ['admin', 'storage:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'storage:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'storage:del'];

/** 云存储: the files of the configured S3-compatible bucket; downloads go through short-lived signed links. */
export default function CloudStoragePage() {
  const t = useCloudStorageMessages();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: cloudKeys.config, queryFn: fetchCloudConfig });
  const list = useListPage<CloudFile, KeywordFilter>({ query: cloudFileList, defaultSort: ['id,desc'] });
  const [uploading, setUploading] = useState(false);
  const [configuring, setConfiguring] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const configured = config.data?.configured === true;

  const download = async (file: CloudFile) => {
    const { url } = await cloudFileLink(file.id);
    window.location.assign(url);
  };

  const sync = async () => {
    setSyncing(true);
    try {
      const result = await syncCloudFiles();
      void message.success(t('cloud.synced', result));
      void list.refresh();
    } finally {
      setSyncing(false);
    }
  };

  const columns: ListColumn<CloudFile>[] = [
    { key: 'name', title: t('cloud.name'), dataIndex: 'name', sortable: true, ellipsis: true },
    { key: 'key', title: t('cloud.key'), dataIndex: 'key', ellipsis: true, defaultHidden: true },
    { key: 'suffix', title: t('cloud.suffix'), dataIndex: 'suffix', sortable: true, width: 90 },
    { key: 'size', title: t('cloud.size'), dataIndex: 'size', sortable: true, width: 110, render: (size: number) => formatFileSize(size) },
    { key: 'createBy', title: t('cloud.createBy'), dataIndex: 'createBy', width: 110 },
    { key: 'createTime', title: t('cloud.createTime'), dataIndex: 'createTime', sortable: true, sortDirections: ['descend', 'ascend'], width: 170 },
    {
      key: 'actions',
      title: t('cloud.actions'),
      fixed: 'right',
      render: (_, item) => (
        <RowActions del={{ permission: DEL, name: item.name, onConfirm: () => list.remove([item.id]) }}>
          <Typography.Link onClick={() => void download(item)}>{t('cloud.download')}</Typography.Link>
          {item.url !== null && (
            <Typography.Link href={item.url} target="_blank" rel="noreferrer">
              {t('cloud.open')}
            </Typography.Link>
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <>
      {config.data !== undefined && (
        <Alert
          className="cloud-status"
          type={configured ? 'info' : 'warning'}
          showIcon
          style={{ marginBottom: 12 }}
          title={configured ? t('cloud.bucketShown', { bucket: config.data.bucket, endpoint: config.data.endpoint }) : t('cloud.notConfigured')}
        />
      )}
      <ListPage<CloudFile, KeywordFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={<KeywordSearchBar list={list} placeholder={t('cloud.blurry')} />}
        toolbarExtra={
          <>
            <Permission roles={ADD}>
              <Button type="primary" icon={<UploadOutlined />} disabled={!configured} onClick={() => setUploading(true)}>
                {t('cloud.upload')}
              </Button>
            </Permission>
            <Permission roles={ADD}>
              <Button icon={<CloudSyncOutlined />} disabled={!configured} loading={syncing} onClick={() => void sync()}>
                {t('cloud.sync')}
              </Button>
            </Permission>
            <Permission roles={EDIT}>
              <Button icon={<SettingOutlined />} onClick={() => setConfiguring(true)}>
                {t('cloud.config')}
              </Button>
            </Permission>
            <Permission roles={EDIT}>
              {configured && (
                <Button onClick={() => void checkCloudConfig().then(() => message.success(t('cloud.checked')))}>{t('cloud.check')}</Button>
              )}
            </Permission>
          </>
        }
        del={{ permission: DEL, rowName: (item) => item.name }}
      />
      <CloudUploadDialog open={uploading} onClose={() => setUploading(false)} onUploaded={() => void list.refresh()} t={t} />
      <CloudConfigDialog
        config={config.data}
        open={configuring}
        onClose={() => setConfiguring(false)}
        onSaved={() => {
          void queryClient.invalidateQueries({ queryKey: cloudKeys.config });
          void list.refresh();
        }}
        t={t}
      />
    </>
  );
}
