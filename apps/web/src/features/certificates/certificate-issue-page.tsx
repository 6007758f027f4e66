import { ArrowLeftOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { certificateIssueSchema, type CertificatesIssued } from '@cloud-classroom/shared/certificates';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Flex, Form, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LimitedInput } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { useCheckPermission } from '../../components/permission';
import { UserPicker } from '../applicants/user-picker';
import { CERTIFICATES_LIST_PATH } from './certificate-paths';
import { certificatesKeys, issueCertificates, templateOptionsQuery } from './certificates-api';
import { CertificateGroundFields } from './certificate-ground-fields';
import { useCertificateMessages } from './certificates-messages';
import { TermApplicantPicker } from './term-applicant-picker';
import { useTemplateIdParam } from './template-id-param';

type IssueFor = 'none' | 'exam' | 'term';
const ISSUE_FOR: readonly IssueFor[] = ['none', 'exam', 'term'];
/** For a term: its applicants from a table, or anyone by hand. */
type PickFrom = 'applicants' | 'people';
const PICK_FROM: readonly PickFrom[] = ['applicants', 'people'];

export type IssueValues = {
  templateId?: number;
  for: IssueFor;
  examId?: number;
  courseId?: number;
  termId?: number;
  title: string;
  pickFrom: PickFrom;
  userIds: number[];
  applicantIds: number[];
  /** Issue again to people holding a valid one for the exam or term, superseding it. */
  reissue: boolean;
};

const APPLICANT_READERS: readonly PermissionCheck[] = ['admin', 'applicant:list'];

const shape = certificateIssueSchema.shape;

/** Whether the people are the chosen term's applicants (enrolments), not accounts picked by hand. */
const byApplicants = (values: Pick<IssueValues, 'for' | 'pickFrom'>) => values.for === 'term' && values.pickFrom === 'applicants';

/**
 * The body the server takes: the exam or the term only when chosen as the certificate's ground;
 * a term's applicants as `applicantIds` (the server checks they are enrolled in it), else `userIds`.
 */
export function issueBodyOf(values: IssueValues) {
  return {
    templateId: values.templateId as number,
    ...(byApplicants(values) ? { applicantIds: values.applicantIds } : { userIds: values.userIds }),
    examId: values.for === 'exam' ? (values.examId ?? null) : null,
    termId: values.for === 'term' ? (values.termId ?? null) : null,
    title: values.title.trim() || null,
    reissue: values.for !== 'none' && values.reissue,
  };
}

/**
 * /edu/applicant-cert (`?template=` chooses the template): issues a certificate by hand to each
 * chosen person, within the issuer's data scope, optionally for an exam (its title and each
 * person's counted score) or a term (its course's title), to whom a term is for: its applicants
 * picked from a table (or all who completed it) by default, or anyone by hand; lists the numbers given.
 */
export default function CertificateIssuePage() {
  const t = useCertificateMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const may = useCheckPermission();
  const [form] = Form.useForm<IssueValues>();
  const templateParam = useTemplateIdParam('template');
  const [issued, setIssued] = useState<CertificatesIssued['certificates'] | null>(null);
  const issueFor = Form.useWatch('for', form) ?? 'none';
  const courseId = Form.useWatch('courseId', form);
  const termId = Form.useWatch('termId', form);
  const mayListApplicants = may(APPLICANT_READERS);
  const pickFromWatched = Form.useWatch('pickFrom', form) ?? 'applicants';
  const pickFrom: PickFrom = mayListApplicants ? pickFromWatched : 'people';
  const templates = useQuery(templateOptionsQuery());

  const { submit, submitting } = useFormSubmit<IssueValues, CertificatesIssued>({
    form,
    mutationFn: (values, request) => issueCertificates(issueBodyOf(values), request),
    successMessage: null,
    onSuccess: async (result) => {
      setIssued(result.certificates);
      form.setFieldsValue({ userIds: [], applicantIds: [] });
      await queryClient.invalidateQueries({ queryKey: certificatesKeys.all });
    },
  });

  return (
    <Form<IssueValues>
      form={form}
      layout="vertical"
      className="cert-issue"
      initialValues={{ templateId: templateParam, for: 'none', title: '', pickFrom: 'applicants', userIds: [], applicantIds: [], reissue: false }}
      onFinish={(values) => void submit(values)}
      onValuesChange={(changed: Partial<IssueValues>) => {
        // Terms belong to one course, applicants to one term.
        if ('courseId' in changed) form.setFieldValue('termId', undefined);
        if ('courseId' in changed || 'termId' in changed || 'for' in changed) form.setFieldValue('applicantIds', []);
      }}
      style={{ maxWidth: 760 }}
    >
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('issue.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('issue.hint')}</Typography.Text>
        </div>
        <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(CERTIFICATES_LIST_PATH)}>
          {t('issue.toList')}
        </Button>
      </Flex>
      {issued !== null && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setIssued(null)}
          style={{ marginBottom: 12 }}
          title={t('issue.issued', { count: issued.length })}
          description={<Typography.Text copyable>{issued.map((certificate) => certificate.number).join(', ')}</Typography.Text>}
        />
      )}
      <Card size="small">
        <Form.Item name="templateId" label={t('issue.template')} rules={[zodRule(shape.templateId)]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('issue.chooseTemplate')}
            loading={templates.isFetching}
            options={(templates.data ?? []).map((template) => ({ value: template.id, label: `${template.name} · v${template.version}` }))}
          />
        </Form.Item>
        <Form.Item name="for" label={t('issue.for')} extra={t('issue.forHint')}>
          <Radio.Group optionType="button" options={ISSUE_FOR.map((value) => ({ value, label: t(`issue.for.${value}`) }))} />
        </Form.Item>
        <CertificateGroundFields ground={issueFor} courseId={courseId} onCourseChange={() => undefined} sideBySide />
        <Form.Item name="title" label={t('issue.certTitle')} extra={t('issue.certTitleHint')}>
          <LimitedInput schema={shape.title} />
        </Form.Item>
        {issueFor === 'term' && mayListApplicants && (
          <Form.Item name="pickFrom" label={t('issue.pickFrom')}>
            <Radio.Group optionType="button" options={PICK_FROM.map((value) => ({ value, label: t(`issue.pickFrom.${value}`) }))} />
          </Form.Item>
        )}
        {byApplicants({ for: issueFor, pickFrom }) ? (
          <Form.Item name="applicantIds" label={t('issue.applicants')} extra={t('issue.applicantsHint')} rules={[zodRule(shape.applicantIds)]}>
            <TermApplicantPicker termId={termId} />
          </Form.Item>
        ) : (
          <Form.Item name="userIds" label={t('issue.people')} extra={t('issue.peopleHint')} rules={[zodRule(shape.userIds)]}>
            <UserPicker placeholder={t('issue.peoplePlaceholder')} aria-label={t('issue.people')} />
          </Form.Item>
        )}
        {issueFor !== 'none' && (
          <Form.Item name="reissue" valuePropName="checked" extra={t('issue.reissueHint')}>
            <Checkbox>{t('issue.reissue')}</Checkbox>
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" icon={<SafetyCertificateOutlined />} loading={submitting}>
          {t('issue.submit')}
        </Button>
      </Card>
    </Form>
  );
}
