import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { CustomerServiceOutlined, FileTextOutlined, UploadOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { FileCategory, LocalStorage } from '@cloud-classroom/shared/storage';
import { Button, Image, Tag, Typography } from 'antd';
import { useState } from 'react';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission } from '../../components/permission';
import { apiUrl } from '../../lib/http-client';
import { storageList } from './storage-api';
import { useStorageMessages } from './storage-messages';
import { StorageRenameDialog } from './storage-rename-dialog';
import { StorageUploadDialog } from './storage-upload-dialog';

const ADD: readonly PermissionCheck[] = ['admin', 'storage:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'storage:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'storage:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'storage:list'];

const PREVIEW_SIZE = 48;

const CATEGORY_ICONS: Record<Exclude<FileCategory, '图片'>, typeof FileTextOutlined> = {
  文档: FileTextOutlined,
  音乐: CustomerServiceOutlined,
  视频: VideoCameraOutlined,
};

const CATEGORY_COLOURS: Record<FileCategory, string> = { 图片: 'green', 文档: 'blue', 音乐: 'purple', 视频: 'magenta' };

function Preview({ file }: { file: LocalStorage }) {
  if (file.type === '图片') {
    return (
      <Image
        src={apiUrl(file.url)}
        alt={file.name}
        width={PREVIEW_SIZE}
        height={PREVIEW_SIZE}
        style={{ objectFit: 'cover', borderRadius: 4 }}
      />
    );
  }
  const Icon = CATEGORY_ICONS[file.type];
  return <Icon style={{ fontSize: 28, color: 'rgba(0, 0, 0, 0.45)' }} aria-label={file.suffix} />;
}

/** 存储管理: files kept on this server; pictures preview in place, every name opens its file. */
export default function StorageListPage() {
  const t = useStorageMessages();
  const list = useListPage<LocalStorage, KeywordFilter>({ query: storageList, defaultSort: ['createTime,desc'] });
  const [uploading, setUploading] = useState(false);
  const [renaming, setRenaming] = useState<LocalStorage>();

  const columns: ListColumn<LocalStorage>[] = [
    {
      key: 'name',
      title: t('storage.name'),
      dataIndex: 'name',
      sortable: true,
      render: (name: string, file) => (
        <Typography.Link href={apiUrl(file.url)} target="_blank" rel="noreferrer" title={t('storage.open')}>
          {name}
        </Typography.Link>
      ),
    },
    { key: 'preview', title: t('storage.preview'), render: (_, file) => <Preview file={file} /> },
    { key: 'realName', title: t('storage.realName'), dataIndex: 'realName', sortable: true, defaultHidden: true },
    { key: 'suffix', title: t('storage.suffix'), dataIndex: 'suffix', sortable: true },
    {
      key: 'type',
      title: t('storage.type'),
      dataIndex: 'type',
      sortable: true,
      render: (type: FileCategory) => <Tag color={CATEGORY_COLOURS[type]}>{t(`storage.category.${type}`)}</Tag>,
    },
    { key: 'size', title: t('storage.size'), dataIndex: 'size', sortable: true },
    { key: 'createBy', title: t('storage.createBy'), dataIndex: 'createBy' },
    {
      key: 'createTime',
      title: t('storage.createTime'),
      dataIndex: 'createTime',
      sortable: true,
      // Newest first is the default order; descending first lets one click reach the oldest.
      sortDirections: ['descend', 'ascend'],
    },
    {
      key: 'actions',
      title: t('storage.actions'),
      fixed: 'right',
      render: (_, file) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setRenaming(file) }}
          del={{ permission: DEL, name: file.name, onConfirm: () => list.remove([file.id]) }}
        />
      ),
    },
  ];

  return (
    <>
      <ListPage<LocalStorage, KeywordFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={<KeywordSearchBar list={list} placeholder={t('storage.blurry')} />}
        toolbarExtra={
          <Permission roles={ADD}>
            <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)}>
              {t('storage.upload')}
            </Button>
          </Permission>
        }
        edit={{ permission: EDIT, onClick: (file) => setRenaming(file) }}
        del={{ permission: DEL, rowName: (file) => file.name }}
        exportFile={{ permission: LIST, fileName: t('storage.exportName') }}
      />
      <StorageUploadDialog open={uploading} onClose={() => setUploading(false)} onUploaded={() => void list.refresh()} t={t} />
      <StorageRenameDialog file={renaming} onClose={() => setRenaming(undefined)} onRenamed={() => void list.refresh()} t={t} />
    </>
  );
}
