import { ArrowLeftOutlined } from '@ant-design/icons';
import { APPLICANT_STATUSES, applicantUpdateSchema, type Applicant, type ApplicantStatus } from '@cloud-classroom/shared/applicants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, DatePicker, Descriptions, Flex, Form, Progress, Result, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LimitedTextArea } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { useTagsViewStore } from '../tags-view/tags-view-store';
import { useApplicantMessages } from './applicants-messages';
import { applicantQuery, applicantsKeys, cachedApplicant, updateApplicant } from './applicants-api';
import { dueAtOf } from './enrol-dialog';
import { APPLICANTS_PAGE_PATH } from './applicant-paths';

const EDIT_APPLICANT_PATH = '/edu/edit-applicant';

type ApplicantValues = { status: ApplicantStatus; dueAt: Dayjs | null; reason: string };

function positiveId(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function ApplicantForm({ applicant }: { applicant: Applicant }) {
  const t = useApplicantMessages();
  const [form] = Form.useForm<ApplicantValues>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const shape = applicantUpdateSchema.shape;
  // The picker shows minutes: an untouched due date is sent as it was, seconds and all.
  const dueAtKept = (at: Dayjs | null | undefined) =>
    at && applicant.dueAt !== null && at.isSame(dayjs(applicant.dueAt), 'minute') ? applicant.dueAt : dueAtOf(at);

  const { submit, submitting } = useFormSubmit<ApplicantValues>({
    form,
    mutationFn: (values, request) =>
      updateApplicant({ id: applicant.id, status: values.status, dueAt: dueAtKept(values.dueAt), reason: values.reason?.trim() || null }, request),
    successMessage: t('applicants.saved'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: applicantsKeys.applicants });
      useTagsViewStore.getState().closeView(EDIT_APPLICANT_PATH);
      void navigate(APPLICANTS_PAGE_PATH);
    },
  });

  const initialValues: ApplicantValues = {
    status: applicant.status,
    dueAt: applicant.dueAt === null ? null : dayjs(applicant.dueAt),
    reason: applicant.reason ?? '',
  };

  return (
    <Card size="small" title={t('applicants.editTitle', { name: applicant.nickName })} style={{ maxWidth: 720 }}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'person', label: t('applicants.person'), children: `${applicant.nickName} (${applicant.username})` },
          { key: 'dept', label: t('applicants.dept'), children: applicant.deptName ?? '—' },
          { key: 'term', label: t('applicants.term'), children: `${applicant.courseTitle} · ${applicant.termName}` },
          { key: 'source', label: t('applicants.source'), children: t(`applicants.source.${applicant.source}`) },
          { key: 'createTime', label: t('applicants.createTime'), children: applicant.createTime },
          { key: 'progress', label: t('applicants.progress'), children: <Progress percent={applicant.percent} size="small" style={{ maxWidth: 200 }} /> },
        ]}
      />
      <Form<ApplicantValues> form={form} layout="vertical" initialValues={initialValues} onFinish={(values) => void submit(values)}>
        <Form.Item name="status" label={t('applicants.status')} rules={[zodRule(shape.status)]}>
          <Select options={APPLICANT_STATUSES.map((status) => ({ value: status, label: t(`applicants.status.${status}`) }))} style={{ maxWidth: 240 }} />
        </Form.Item>
        <Form.Item name="dueAt" label={t('applicants.dueAt')} extra={t('applicants.dueAtHint')}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%', maxWidth: 240 }} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('applicants.reason')}
          dependencies={['status']}
          rules={[
            zodRule(shape.reason),
            ({ getFieldValue }) => ({
              required: getFieldValue('status') === 'rejected',
              validator: async (_rule, reason: string | undefined) => {
                if (getFieldValue('status') === 'rejected' && !reason?.trim()) throw new Error(t('applicants.reasonRequired'));
              },
            }),
          ]}
        >
          <LimitedTextArea schema={applicantUpdateSchema.shape.reason} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={submitting}>
            {t('applicants.save')}
          </Button>
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(APPLICANTS_PAGE_PATH)}>
            {t('applicants.back')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}

function Missing({ text }: { text: string }) {
  const t = useApplicantMessages();
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={text}
      extra={
        <Button type="primary" onClick={() => void navigate(APPLICANTS_PAGE_PATH)}>
          {t('applicants.back')}
        </Button>
      }
    />
  );
}

/**
 * /edu/edit-applicant?id=<enrolment>: the status, due date and reason of one enrolment. It starts
 * from the row of the list that opened it (the navigation's state, or the list's pages in the
 * query cache) and reads it from the API when opened from its address alone.
 */
export default function ApplicantEditPage() {
  const t = useApplicantMessages();
  const [params] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const id = positiveId(params.get('id'));
  const fromState = (location.state as { applicant?: Applicant } | null)?.applicant;
  const known = id === undefined ? undefined : fromState?.id === id ? fromState : cachedApplicant(queryClient, id);
  const applicant = useQuery({ ...applicantQuery(id ?? 0, known), enabled: id !== undefined });
  if (id === undefined) return <Missing text={t('applicants.noTarget')} />;
  if (applicant.data === undefined) {
    return applicant.isPending ? <Card loading /> : <Missing text={t('applicants.notLoaded')} />;
  }
  // The page stays mounted from one enrolment to the next: each gets a fresh form (antd reads
  // initial values once, so a list reloading behind it does not reset what is being typed).
  return <ApplicantForm key={applicant.data.id} applicant={applicant.data} />;
}
