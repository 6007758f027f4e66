import { ENROL_MODES, termCreateSchema, type EnrolMode, type Term, type TermCreateBody } from '@cloud-classroom/shared/courses';
import { DatePicker, Form, InputNumber, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { LimitedInput } from '../../components/form/limited-input';
import { WIRE_TIME_FORMAT } from '../../components/list-page/date-range-filter';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { useCourseMessages } from './courses-messages';
import { createTerm, updateTerm } from './courses-api';

export type TermFormValues = {
  name: string;
  /** Start and end, to the minute. */
  period?: [Dayjs | null, Dayjs | null] | null;
  /** Empty: no limit. */
  capacity?: number | null;
  enrolMode: EnrolMode;
};

const shape = termCreateSchema.shape;

export function termBodyOf(courseId: number, values: TermFormValues): TermCreateBody {
  const [start, end] = values.period ?? [];
  return {
    courseId,
    name: values.name.trim(),
    // The period rule has made sure both are there.
    startAt: (start as Dayjs).second(0).format(WIRE_TIME_FORMAT),
    endAt: (end as Dayjs).second(0).format(WIRE_TIME_FORMAT),
    capacity: values.capacity ?? null,
    enrolMode: values.enrolMode,
  };
}

function initialValuesOf(term: Term | undefined): TermFormValues {
  if (term === undefined) return { name: '', period: null, capacity: null, enrolMode: 'open' };
  return { name: term.name, period: [dayjs(term.startAt), dayjs(term.endAt)], capacity: term.capacity, enrolMode: term.enrolMode };
}

export type TermFormDialogProps = {
  courseId: number;
  /** The term to edit; absent adds one to the course. */
  term?: Term;
  onClose: () => void;
  onSaved: () => void;
};

/** Adds or edits a term of the selected course: its name, when it runs, how many may enrol and how. */
export function TermFormDialog({ courseId, term, onClose, onSaved }: TermFormDialogProps) {
  const t = useCourseMessages();
  const editing = term !== undefined;

  return (
    <FormDialog<TermFormValues>
      open
      title={editing ? t('courses.term.editTitle') : t('courses.term.addTitle')}
      initialValues={initialValuesOf(term)}
      width={600}
      labelWidth={100}
      // The server names the times apart; the form picks them together.
      fields={{ startAt: 'period', endAt: 'period' }}
      onSubmit={(values, request) => {
        const body = termBodyOf(courseId, values);
        return editing ? updateTerm({ ...body, id: term.id }, request) : createTerm(body, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('courses.term.name')} rules={[zodRule(shape.name)]}>
        <LimitedInput schema={shape.name} />
      </Form.Item>
      <Form.Item
        name="period"
        label={t('courses.term.period')}
        required
        rules={[
          {
            validator: async (_rule, period: TermFormValues['period']) => {
              const [start, end] = period ?? [];
              if (!start || !end) throw new Error(t('courses.term.periodRequired'));
              if (!end.second(0).isAfter(start.second(0))) throw new Error(t('courses.term.endAfterStart'));
            },
          },
        ]}
      >
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          placeholder={[t('courses.term.startPlaceholder'), t('courses.term.endPlaceholder')]}
          style={{ width: '100%', maxWidth: 380 }}
        />
      </Form.Item>
      <Form.Item name="capacity" label={t('courses.term.capacity')} extra={t('courses.term.capacityHint')} rules={[zodRule(shape.capacity)]}>
        <InputNumber min={1} max={1_000_000} precision={0} placeholder={t('courses.term.unlimited')} style={{ width: '100%', maxWidth: 200 }} />
      </Form.Item>
      <Form.Item name="enrolMode" label={t('courses.term.enrolMode')} extra={<EnrolModeHint />}>
        <Radio.Group optionType="button" options={ENROL_MODES.map((mode) => ({ value: mode, label: t(`courses.term.mode.${mode}`) }))} />
      </Form.Item>
    </FormDialog>
  );
}

/** What the chosen enrolment mode means, under the choice. */
function EnrolModeHint() {
  const t = useCourseMessages();
  const mode = Form.useWatch<EnrolMode | undefined>('enrolMode');
  return mode === undefined ? null : t(`courses.term.modeHint.${mode}`);
}
