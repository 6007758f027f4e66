import { EyeOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { CertTemplate } from '@cloud-classroom/shared/certificates';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { Button, Form, Input, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission } from '../../components/permission';
import { EDIT_CERT_PATH, ISSUE_CERT_PATH, PREVIEW_CERT_PATH } from './certificate-paths';
import { templateList } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';

type TemplateFilter = { q?: string };

const ADD: readonly PermissionCheck[] = ['admin', 'cert:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'cert:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'cert:del'];
const ISSUE: readonly PermissionCheck[] = ['admin', 'cert:issue'];

/** Certificates → the templates: their number pattern, validity, page and version; edit, preview, issue with or delete each. */
export default function TemplateListPage() {
  const t = useCertificateMessages();
  const tl = useListMessages();
  const navigate = useNavigate();
  const list = useListPage<CertTemplate, TemplateFilter>({ query: templateList, defaultSort: ['id,desc'] });
  const openEdit = (template: CertTemplate) => void navigate(`${EDIT_CERT_PATH}?id=${template.id}`);

  const columns: ListColumn<CertTemplate>[] = [
    {
      key: 'name',
      title: t('templates.name'),
      dataIndex: 'name',
      sortable: true,
      width: 200,
      ellipsis: true,
      render: (name: string, row) => (
        <Typography.Link onClick={() => openEdit(row)} title={name}>
          {name}
        </Typography.Link>
      ),
    },
    { key: 'numberPattern', title: t('templates.numberPattern'), dataIndex: 'numberPattern', width: 170 },
    {
      key: 'validity',
      title: t('templates.validity'),
      dataIndex: 'validityMonths',
      width: 100,
      render: (months: number | null) => (months === null ? t('certs.never') : t('templates.monthsN', { count: months })),
    },
    {
      key: 'page',
      title: t('templates.page'),
      width: 110,
      render: (_value, row) => `${row.layout.pageSize} · ${t(`editor.orientation.${row.layout.orientation}`)}`,
    },
    { key: 'version', title: t('templates.version'), dataIndex: 'version', width: 70, render: (version: number) => `v${version}` },
    { key: 'certificateCount', title: t('templates.certificateCount'), dataIndex: 'certificateCount', width: 80 },
    { key: 'updateTime', title: t('templates.updateTime'), dataIndex: 'updateTime', sortable: true, width: 165 },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 260,
      render: (_value, row) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => openEdit(row) }}
          del={{ permission: DEL, name: row.name, warning: t('templates.deleteWarning'), onConfirm: () => list.remove([row.id]) }}
        >
          <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => void navigate(`${PREVIEW_CERT_PATH}?id=${row.id}`)}>
            {t('templates.preview')}
          </Button>
          <Permission roles={ISSUE}>
            <Button type="link" size="small" icon={<SafetyCertificateOutlined />} onClick={() => void navigate(`${ISSUE_CERT_PATH}?template=${row.id}`)}>
              {t('templates.issue')}
            </Button>
          </Permission>
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage<CertTemplate, TemplateFilter>
      list={list}
      rowKey="id"
      columns={columns}
      search={
        <SearchBar list={list}>
          <Form.Item name="q">
            <Input id="cert-template-search-q" allowClear placeholder={t('templates.search')} aria-label={t('templates.search')} style={{ width: 220, maxWidth: '100%' }} />
          </Form.Item>
        </SearchBar>
      }
      add={{ permission: ADD, onClick: () => void navigate(EDIT_CERT_PATH) }}
      edit={{ permission: EDIT, onClick: openEdit }}
      del={{ permission: DEL, rowName: (row) => row.name, warning: t('templates.deleteWarning') }}
    />
  );
}
