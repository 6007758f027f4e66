import { FileZipOutlined, FilePdfOutlined, PlusOutlined, RedoOutlined, StopOutlined, UploadOutlined } from '@ant-design/icons';
import { CERTIFICATE_STATUSES, type Certificate, type CertificateStatus } from '@cloud-classroom/shared/certificates';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Permission } from '../../components/permission';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import type { Query } from '../../lib/http-client';
import { ReissueDialog, RevokeDialog } from './certificate-dialogs';
import { IMPORT_CERT_PATH, ISSUE_CERT_PATH } from './certificate-paths';
import { CertificateStatusTag } from './certificate-status-tag';
import { certificateList, certificatePdfUrl, certificatesZipUrl, templateOptionsQuery } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';

type CertificateFilter = { q?: string; templateId?: number; status?: CertificateStatus };

const ISSUE: readonly PermissionCheck[] = ['admin', 'cert:issue'];
const REVOKE: readonly PermissionCheck[] = ['admin', 'cert:revoke'];
const LIST: readonly PermissionCheck[] = ['admin', 'cert:list'];

type Dialog = { kind: 'revoke'; row: Certificate } | { kind: 'reissue'; row: Certificate } | null;

/** Certificates → every certificate within the caller's scope: find, open its PDF, revoke with a reason, re-issue under a corrected name. */
export default function CertificateListPage() {
  const t = useCertificateMessages();
  const tl = useListMessages();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const list = useListPage<Certificate, CertificateFilter>({ query: certificateList, defaultSort: ['id,desc'] });
  const templates = useQuery(templateOptionsQuery());
  const [dialog, setDialog] = useState<Dialog>(null);

  const done = () => {
    setDialog(null);
    void list.refresh();
  };

  const columns: ListColumn<Certificate>[] = [
    {
      key: 'number',
      title: t('certs.number'),
      dataIndex: 'number',
      sortable: true,
      width: 170,
      render: (number: string, row) => (
        <Typography.Link href={certificatePdfUrl(row.id)} target="_blank" rel="noopener">
          {number}
        </Typography.Link>
      ),
    },
    {
      key: 'holderName',
      title: t('certs.holder'),
      dataIndex: 'holderName',
      sortable: true,
      width: 150,
      ellipsis: true,
      render: (name: string, row) => (
        <span title={row.username ?? undefined}>
          {name}
          {row.username !== null && <Typography.Text type="secondary"> ({row.username})</Typography.Text>}
        </span>
      ),
    },
    { key: 'title', title: t('certs.title'), dataIndex: 'title', width: 200, ellipsis: true },
    { key: 'template', title: t('certs.template'), dataIndex: 'templateName', width: 150, ellipsis: true, render: (name: string, row) => `${name} · v${row.templateVersion}` },
    { key: 'score', title: t('certs.score'), dataIndex: 'score', width: 80, render: (score: string | null) => score ?? '—' },
    { key: 'status', title: t('certs.status'), dataIndex: 'status', width: 100, render: (status: CertificateStatus) => <CertificateStatusTag status={status} /> },
    { key: 'issuedAt', title: t('certs.issuedOn'), dataIndex: 'issuedOn', sortable: true, width: 110 },
    { key: 'expiresAt', title: t('certs.expiresOn'), dataIndex: 'expiresOn', sortable: true, width: 110, render: (date: string | null) => date ?? t('certs.never') },
    { key: 'source', title: t('certs.source'), dataIndex: 'source', width: 90, defaultHidden: true, render: (source: Certificate['source']) => t(`certs.source.${source}`) },
    { key: 'revokedAt', title: t('certs.revokedAt'), dataIndex: 'revokedAt', sortable: true, width: 165, defaultHidden: true, render: (at: string | null) => at ?? '' },
    { key: 'revokeReason', title: t('certs.revokeReason'), dataIndex: 'revokeReason', width: 180, ellipsis: true, defaultHidden: true, render: (reason: string | null) => reason ?? '' },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 230,
      render: (_value, row) => (
        <RowActions>
          <Button type="link" size="small" icon={<FilePdfOutlined />} href={certificatePdfUrl(row.id)} target="_blank" rel="noopener">
            {t('certs.pdf')}
          </Button>
          {row.status !== 'revoked' && row.status !== 'superseded' && (
            <Permission roles={ISSUE}>
              <Button type="link" size="small" icon={<RedoOutlined />} onClick={() => setDialog({ kind: 'reissue', row })}>
                {t('certs.reissue')}
              </Button>
            </Permission>
          )}
          {row.status !== 'revoked' && (
            <Permission roles={REVOKE}>
              <Button type="link" size="small" danger icon={<StopOutlined />} onClick={() => setDialog({ kind: 'revoke', row })}>
                {t('certs.revoke')}
              </Button>
            </Permission>
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <>
      <ListPage<Certificate, CertificateFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={
          <SearchBar list={list}>
            <Form.Item name="q">
              <Input id="cert-search-q" allowClear placeholder={t('certs.search')} aria-label={t('certs.search')} style={{ width: 220, maxWidth: '100%' }} />
            </Form.Item>
            <Form.Item name="templateId">
              <Select
                id="cert-search-template"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('certs.anyTemplate')}
                aria-label={t('certs.template')}
                loading={templates.isFetching}
                options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
                style={{ width: 200, maxWidth: '100%' }}
              />
            </Form.Item>
            <Form.Item name="status">
              <Select
                id="cert-search-status"
                allowClear
                placeholder={t('certs.anyStatus')}
                aria-label={t('certs.status')}
                options={CERTIFICATE_STATUSES.map((status) => ({ value: status, label: t(`certs.status.${status}`) }))}
                style={{ width: 140, maxWidth: '100%' }}
              />
            </Form.Item>
          </SearchBar>
        }
        toolbarExtra={
          <>
            <Permission roles={ISSUE}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(ISSUE_CERT_PATH)}>
                {t('certs.issue')}
              </Button>
              <Button icon={<UploadOutlined />} onClick={() => void navigate(IMPORT_CERT_PATH)}>
                {t('certs.import')}
              </Button>
            </Permission>
            <Permission roles={LIST}>
              <ZipDownload filter={list.exportParams} total={list.total} loading={list.loading} />
            </Permission>
          </>
        }
      />
      {dialog?.kind === 'revoke' && <RevokeDialog rows={[dialog.row]} onClose={() => setDialog(null)} onDone={done} />}
      {dialog?.kind === 'reissue' && (
        <ReissueDialog
          row={dialog.row}
          onClose={() => setDialog(null)}
          onDone={(number) => {
            message.success(t('certs.reissued', { number }));
            done();
          }}
        />
      )}
    </>
  );
}

/**
 * The PDFs of every certificate the list's filter finds, as one ZIP: a plain link (the route
 * streams it and takes the session cookie), saying how many it holds; nothing to download from an empty list.
 */
function ZipDownload({ filter, total, loading }: { filter: Query; total: number; loading: boolean }) {
  const t = useCertificateMessages();
  const empty = total === 0;
  return (
    <Tooltip title={empty ? t('certs.zipEmpty') : t('certs.zipHint', { count: total })}>
      <Button icon={<FileZipOutlined />} href={empty ? undefined : certificatesZipUrl(filter)} disabled={empty || loading}>
        {t('certs.downloadZip')}
      </Button>
    </Tooltip>
  );
}
