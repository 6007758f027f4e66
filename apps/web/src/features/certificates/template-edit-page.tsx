import { ArrowLeftOutlined, EyeOutlined } from '@ant-design/icons';
import {
  certificateLayoutSchema,
  certTemplateCreateSchema,
  DEFAULT_CERTIFICATE_NUMBER_PATTERN,
  MAX_VALIDITY_MONTHS,
  type CertificateLayout,
  type CertTemplate,
} from '@cloud-classroom/shared/certificates';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, InputNumber, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LimitedInput } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { HttpError } from '../../lib/http-client';
import { EDIT_CERT_PATH, PREVIEW_CERT_PATH, TEMPLATES_LIST_PATH } from './certificate-paths';
import { certificatesKeys, createTemplate, templateQuery, updateTemplate } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';
import { LayoutEditor } from './layout-editor';
import { BackToTemplates, useTemplateIdParam } from './template-id-param';
import './certificates.css';

type TemplateValues = { name: string; numberPattern: string; validityMonths: number | null; layout: CertificateLayout };

const shape = certTemplateCreateSchema.shape;

/** The layout check's messages by field index (`fields.2.x: runs off the page's right edge`), shown at the field. */
export function layoutIssuesOf(layout: CertificateLayout): Map<number, string> {
  const parsed = certificateLayoutSchema.safeParse(layout);
  const issues = new Map<number, string>();
  if (parsed.success) return issues;
  for (const issue of parsed.error.issues) {
    const [first, index, name] = issue.path;
    if (first === 'fields' && typeof index === 'number' && !issues.has(index)) issues.set(index, `${String(name ?? '')}: ${issue.message}`);
  }
  return issues;
}

function TemplateForm({ template }: { template?: CertTemplate }) {
  const t = useCertificateMessages();
  const [form] = Form.useForm<TemplateValues>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [layoutErrors, setLayoutErrors] = useState<ReadonlyMap<number, string>>(new Map());
  const name = Form.useWatch('name', form);

  const { submit, submitting } = useFormSubmit<TemplateValues, { id: number; version?: number }>({
    form,
    mutationFn: async (values, request) => {
      const body = { name: values.name, numberPattern: values.numberPattern, validityMonths: values.validityMonths ?? null, layout: values.layout };
      if (template === undefined) return createTemplate(body, request);
      await updateTemplate({ ...body, id: template.id }, request);
      return { id: template.id };
    },
    successMessage: null,
    onSuccess: async ({ id }) => {
      await queryClient.invalidateQueries({ queryKey: certificatesKeys.templates });
      const saved = await queryClient.fetchQuery(templateQuery(id));
      // A layout certificates used went into a new version: say so, as issued ones keep the old.
      message.success(template !== undefined && saved.version !== template.version ? t('editor.savedVersion', { version: saved.version }) : t('editor.saved'));
      if (template === undefined) void navigate(`${EDIT_CERT_PATH}?id=${id}`, { replace: true });
    },
  });

  const initialValues: TemplateValues = {
    name: template?.name ?? '',
    numberPattern: template?.numberPattern ?? DEFAULT_CERTIFICATE_NUMBER_PATTERN,
    validityMonths: template?.validityMonths ?? null,
    layout: template?.layout ?? { pageSize: 'A4', orientation: 'landscape', backgroundImage: null, fields: [] },
  };

  return (
    <Form<TemplateValues>
      form={form}
      layout="vertical"
      className="cert-edit"
      initialValues={initialValues}
      onFinish={(values) => {
        const issues = layoutIssuesOf(values.layout);
        setLayoutErrors(issues);
        if (issues.size === 0) void submit(values);
      }}
      onValuesChange={(changed: Partial<TemplateValues>) => {
        if (changed.layout !== undefined && layoutErrors.size > 0) setLayoutErrors(layoutIssuesOf(changed.layout));
      }}
    >
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {template === undefined ? t('editor.newTitle') : `${t('editor.editTitle')} · ${template.name} (v${template.version})`}
        </Typography.Title>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={submitting}>
            {t('editor.save')}
          </Button>
          {template !== undefined && (
            <Button icon={<EyeOutlined />} onClick={() => void navigate(`${PREVIEW_CERT_PATH}?id=${template.id}`)}>
              {t('editor.previewPdf')}
            </Button>
          )}
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(TEMPLATES_LIST_PATH)}>
            {t('templates.back')}
          </Button>
        </Space>
      </Flex>
      {template !== undefined && template.certificateCount > 0 && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('editor.inUse', { count: template.certificateCount })} />
      )}
      <Card size="small" title={t('editor.basics')} style={{ marginBottom: 16 }}>
        <Flex wrap gap={16}>
          <Form.Item name="name" label={t('templates.name')} rules={[zodRule(shape.name)]} style={{ flex: '1 1 240px' }}>
            <LimitedInput schema={shape.name} />
          </Form.Item>
          <Form.Item name="numberPattern" label={t('templates.numberPattern')} extra={t('templates.numberPatternHint')} rules={[zodRule(shape.numberPattern)]} style={{ flex: '1 1 240px' }}>
            <LimitedInput schema={shape.numberPattern} />
          </Form.Item>
          <Form.Item name="validityMonths" label={t('templates.validityMonths')} extra={t('templates.validityHint')} style={{ flex: '0 1 180px' }}>
            <InputNumber min={1} max={MAX_VALIDITY_MONTHS} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Flex>
      </Card>
      <Form.Item name="layout" noStyle>
        <LayoutEditor errors={layoutErrors} sampleTitle={name} />
      </Form.Item>
    </Form>
  );
}

function EditTemplate({ id }: { id: number }) {
  const t = useCertificateMessages();
  const template = useQuery(templateQuery(id));
  if (template.error instanceof HttpError && template.error.status === 404) return <BackToTemplates text={t('templates.notFound')} />;
  if (template.error !== null && template.data === undefined) return <BackToTemplates text={t('templates.notFound')} />;
  if (template.data === undefined) return <Skeleton active />;
  return <TemplateForm template={template.data} />;
}

/**
 * /edu/edit-cert: `?id=<template>` edits a template, no id adds one. Name, number pattern and
 * validity above the layout editor. Saving a layout certificates use makes a new version (the
 * server decides), which the page then names.
 */
export default function TemplateEditPage() {
  const id = useTemplateIdParam();
  // The page stays mounted from one template to the next: each address gets a fresh form.
  if (id !== undefined) return <EditTemplate key={`id-${id}`} id={id} />;
  return <TemplateForm key="new" />;
}
