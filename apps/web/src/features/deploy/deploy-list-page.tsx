import { ExportOutlined, UploadOutlined } from '@ant-design/icons';
import type { DeployPackage, DeployPlatform } from '@cloud-classroom/shared/deploy';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { Button, Tag, Typography } from 'antd';
import { useState } from 'react';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission } from '../../components/permission';
import { apiUrl } from '../../lib/http-client';
import { packageFileUrl, deployList } from './deploy-api';
import { DeployEditDialog, DeployUploadDialog } from './deploy-dialogs';
import { useDeployMessages } from './deploy-messages';

const ADD: readonly PermissionCheck[] = ['admin', 'deploy:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'deploy:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'deploy:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'deploy:list'];

const PLATFORM_COLOURS: Record<DeployPlatform, string> = { windows: 'blue', macos: 'purple', linux: 'gold', android: 'green', ios: 'magenta', any: 'cyan' };

/** 安装包管理: versions of the packages the public `/download` page offers, with their checksums and downloads. */
export default function DeployListPage() {
  const t = useDeployMessages();
  const list = useListPage<DeployPackage, KeywordFilter>({ query: deployList, defaultSort: ['createTime,desc'] });
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<DeployPackage>();

  const columns: ListColumn<DeployPackage>[] = [
    { key: 'name', title: t('deploy.name'), dataIndex: 'name', sortable: true },
    { key: 'version', title: t('deploy.version'), dataIndex: 'version', sortable: true },
    {
      key: 'platform',
      title: t('deploy.platform'),
      dataIndex: 'platform',
      sortable: true,
      render: (platform: DeployPlatform) => <Tag color={PLATFORM_COLOURS[platform]}>{t(`deploy.platform.${platform}`)}</Tag>,
    },
    { key: 'fileName', title: t('deploy.fileName'), dataIndex: 'fileName', ellipsis: true },
    { key: 'size', title: t('deploy.size'), dataIndex: 'size', sortable: true, render: (size: number) => formatFileSize(size) },
    {
      key: 'sha256',
      title: t('deploy.sha256'),
      dataIndex: 'sha256',
      width: 180,
      render: (sha256: string) => (
        <Typography.Text code copyable={{ text: sha256 }} ellipsis={{ tooltip: sha256 }} style={{ maxWidth: 150 }}>
          {sha256}
        </Typography.Text>
      ),
    },
    { key: 'downloads', title: t('deploy.downloads'), dataIndex: 'downloads', sortable: true },
    { key: 'releaseNotes', title: t('deploy.releaseNotes'), dataIndex: 'releaseNotes', ellipsis: true, defaultHidden: true },
    { key: 'createBy', title: t('deploy.createBy'), dataIndex: 'createBy' },
    { key: 'createTime', title: t('deploy.createTime'), dataIndex: 'createTime', sortable: true, sortDirections: ['descend', 'ascend'] },
    {
      key: 'actions',
      title: t('deploy.actions'),
      fixed: 'right',
      render: (_, item) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setEditing(item) }}
          del={{ permission: DEL, name: `${item.name} ${item.version}`, onConfirm: () => list.remove([item.id]) }}
        >
          <Typography.Link href={apiUrl(packageFileUrl(item.id))} download={item.fileName}>
            {t('deploy.download')}
          </Typography.Link>
        </RowActions>
      ),
    },
  ];

  return (
    <>
      <ListPage<DeployPackage, KeywordFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={<KeywordSearchBar list={list} placeholder={t('deploy.blurry')} />}
        toolbarExtra={
          <>
            <Permission roles={ADD}>
              <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)}>
                {t('deploy.upload')}
              </Button>
            </Permission>
            <Button icon={<ExportOutlined />} href="/download" target="_blank" rel="noreferrer">
              {t('deploy.publicPage')}
            </Button>
          </>
        }
        edit={{ permission: EDIT, onClick: (item) => setEditing(item) }}
        del={{ permission: DEL, rowName: (item) => `${item.name} ${item.version}` }}
        exportFile={{ permission: LIST, fileName: t('deploy.exportName') }}
      />
      <DeployUploadDialog open={uploading} onClose={() => setUploading(false)} onUploaded={() => void list.refresh()} t={t} />
      <DeployEditDialog item={editing} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} t={t} />
    </>
  );
}
