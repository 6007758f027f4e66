import { applicantRejectSchema } from '@cloud-classroom/shared/applicants';
import { Form } from 'antd';
import { LimitedTextArea } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { useApplicantMessages } from './applicants-messages';
import { rejectApplicants } from './applicants-api';

type RejectValues = { reason: string };

/** Rejects the chosen enrolments; the learners see the reason, so one is required. */
export function RejectDialog({ ids, onClose, onRejected }: { ids: readonly number[]; onClose: () => void; onRejected: () => void }) {
  const t = useApplicantMessages();
  return (
    <FormDialog<RejectValues>
      open
      title={t('applicants.rejectTitle', { count: ids.length })}
      initialValues={{ reason: '' }}
      successMessage={t('applicants.rejected')}
      onSubmit={(values, request) => rejectApplicants({ ids, reason: values.reason.trim() }, request)}
      onSuccess={onRejected}
      onClose={onClose}
    >
      <Form.Item name="reason" label={t('applicants.reason')} extra={t('applicants.rejectHint')} rules={[zodRule(applicantRejectSchema.shape.reason)]}>
        <LimitedTextArea schema={applicantRejectSchema.shape.reason} autoSize={{ minRows: 3, maxRows: 6 }} />
      </Form.Item>
    </FormDialog>
  );
}
