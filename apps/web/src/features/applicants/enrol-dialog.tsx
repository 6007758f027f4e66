import type { ApplicantsCreated } from '@cloud-classroom/shared/applicants';
import { applicantCreateSchema } from '@cloud-classroom/shared/applicants';
import type { Term } from '@cloud-classroom/shared/courses';
import { App, DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { WIRE_TIME_FORMAT } from '../../components/list-page/date-range-filter';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { useApplicantMessages } from './applicants-messages';
import { enrolPeople } from './applicants-api';
import { UserPicker } from './user-picker';

type EnrolValues = { termId?: number; userIds: number[]; dueAt?: Dayjs | null };

/** The wire's time of a picked due date, to the minute; null for none. */
export const dueAtOf = (at: Dayjs | null | undefined) => (at ? at.second(0).format(WIRE_TIME_FORMAT) : null);

export type EnrolDialogProps = {
  terms: readonly Term[];
  /** The term the list shows, chosen at first. */
  termId?: number;
  onClose: () => void;
  onEnrolled: () => void;
};

/** Staff enrol people into a term of the course directly (approved at once), with a due date if any. */
export function EnrolDialog({ terms, termId, onClose, onEnrolled }: EnrolDialogProps) {
  const t = useApplicantMessages();
  const { message } = App.useApp();
  const shape = applicantCreateSchema.shape;
  return (
    <FormDialog<EnrolValues, ApplicantsCreated>
      open
      title={t('applicants.enrolTitle')}
      width={600}
      initialValues={{ termId, userIds: [], dueAt: null }}
      successMessage={null}
      onSubmit={(values, request) => enrolPeople({ termId: values.termId ?? 0, userIds: values.userIds, dueAt: dueAtOf(values.dueAt) }, request)}
      onSuccess={(result) => {
        message.success(t('applicants.enrolled', { created: result.created, existing: result.existing }));
        onEnrolled();
      }}
      onClose={onClose}
    >
      <Form.Item name="termId" label={t('applicants.term')} rules={[zodRule(shape.termId)]}>
        <Select placeholder={t('applicants.chooseTerm')} options={terms.map((term) => ({ value: term.id, label: term.name }))} />
      </Form.Item>
      <Form.Item name="userIds" label={t('applicants.people')} extra={t('applicants.peopleHint')} rules={[zodRule(shape.userIds)]}>
        <UserPicker placeholder={t('applicants.peoplePlaceholder')} />
      </Form.Item>
      <Form.Item name="dueAt" label={t('applicants.dueAt')} extra={t('applicants.dueAtHint')}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%', maxWidth: 240 }} />
      </Form.Item>
    </FormDialog>
  );
}
