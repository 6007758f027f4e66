import { ArrowLeftOutlined, EditOutlined, ExportOutlined } from '@ant-design/icons';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Permission } from '../../components/permission';
import { HttpError } from '../../lib/http-client';
import { PdfCanvas } from '../progress/site/pdf-canvas';
import { EDIT_CERT_PATH, TEMPLATES_LIST_PATH } from './certificate-paths';
import { templatePreviewUrl, templateQuery, templateVersionsQuery } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';
import { BackToTemplates, useTemplateIdParam } from './template-id-param';
import './certificates.css';

const EDIT: readonly PermissionCheck[] = ['admin', 'cert:edit'];

function Preview({ id }: { id: number }) {
  const t = useCertificateMessages();
  const navigate = useNavigate();
  const template = useQuery(templateQuery(id));
  const versions = useQuery(templateVersionsQuery(id));
  const [version, setVersion] = useState<number | undefined>(undefined);

  if (template.error instanceof HttpError && template.error.status === 404) return <BackToTemplates text={t('templates.notFound')} />;
  if (template.error !== null && template.data === undefined) return <BackToTemplates text={t('templates.notFound')} />;
  if (template.data === undefined) return <Skeleton active />;
  const shown = version ?? template.data.version;
  const url = templatePreviewUrl(id, version);

  return (
    <div className="cert-preview">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('templatePreview.title', { name: template.data.name, version: shown })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('templatePreview.hint')}</Typography.Text>
        </div>
        <Space wrap>
          {(versions.data?.length ?? 0) > 1 && (
            <Select<number>
              aria-label={t('templatePreview.version')}
              value={shown}
              onChange={(next) => setVersion(next === template.data.version ? undefined : next)}
              options={(versions.data ?? []).map((item) => ({ value: item.version, label: `${t('templatePreview.version')} ${item.version} · ${item.createTime.slice(0, 10)}` }))}
              style={{ minWidth: 200 }}
            />
          )}
          <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener">
            {t('templatePreview.open')}
          </Button>
          <Permission roles={EDIT}>
            <Button icon={<EditOutlined />} onClick={() => void navigate(`${EDIT_CERT_PATH}?id=${id}`)}>
              {t('templatePreview.edit')}
            </Button>
          </Permission>
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(TEMPLATES_LIST_PATH)}>
            {t('templates.back')}
          </Button>
        </Space>
      </Flex>
      <Card size="small">
        <div className="cert-preview__frame">
          <PdfCanvas key={url} url={url} page={1} onPages={() => undefined} failedText={t('templatePreview.failed')} />
        </div>
      </Card>
    </div>
  );
}

/**
 * /edu/preview-cert?id=<template>: the real PDF the server draws for the template with sample
 * data (its current version, or an earlier one chosen), on pdf.js as the lesson documents are,
 * and a link to open it whole.
 */
export default function TemplatePreviewPage() {
  const t = useCertificateMessages();
  const id = useTemplateIdParam();
  if (id === undefined) return <BackToTemplates text={t('templates.noTarget')} />;
  return <Preview key={id} id={id} />;
}
