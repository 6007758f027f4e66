import { MAX_ATTEMPTS, MAX_LIMIT_MINUTES, examAssigneeOverrideSchema, type ExamAssignee, type ExamAssigneeOverrideBody } from '@cloud-classroom/shared/exams';
import { DatePicker, Flex, Form, InputNumber, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { dueAtOf } from '../applicants/enrol-dialog';
import { overrideAssignees } from './exams-api';
import { useExamMessages } from './exams-messages';

export type OverrideValues = {
  extraMinutes: number;
  extraAttempts: number;
  openAt: Dayjs | null;
  closeAt: Dayjs | null;
  dueAt: Dayjs | null;
};

const shape = examAssigneeOverrideSchema.shape;
const timeOf = (at: string | null) => (at === null ? null : dayjs(at));

export function overrideBodyOf(ids: readonly number[], values: OverrideValues): ExamAssigneeOverrideBody {
  return {
    ids: [...ids],
    extraMinutes: values.extraMinutes ?? 0,
    extraAttempts: values.extraAttempts ?? 0,
    openAt: dueAtOf(values.openAt),
    closeAt: dueAtOf(values.closeAt),
    dueAt: dueAtOf(values.dueAt),
  };
}

export type OverrideDialogProps = { examId: number; assignees: readonly ExamAssignee[]; onClose: () => void; onSaved: () => void };

/**
 * Personal terms for the chosen assignees: extra minutes, extra attempts, a window of their own
 * (replacing the exam's) and a due date. One person starts from what they have; several from none.
 */
export function OverrideDialog({ examId, assignees, onClose, onSaved }: OverrideDialogProps) {
  const t = useExamMessages();
  const only = assignees.length === 1 ? assignees[0] : undefined;
  const initialValues: OverrideValues = {
    extraMinutes: only?.extraMinutes ?? 0,
    extraAttempts: only?.extraAttempts ?? 0,
    openAt: timeOf(only?.openAt ?? null),
    closeAt: timeOf(only?.closeAt ?? null),
    dueAt: timeOf(only?.dueAt ?? null),
  };
  return (
    <FormDialog<OverrideValues>
      open
      title={only === undefined ? t('assignees.overrideTitleMany', { count: assignees.length }) : t('assignees.overrideTitle', { name: only.nickName })}
      width={560}
      labelWidth={110}
      initialValues={initialValues}
      onSubmit={(values, request) => overrideAssignees(examId, overrideBodyOf(assignees.map((assignee) => assignee.id), values), request)}
      onSuccess={onSaved}
      onClose={onClose}
    >
      {only === undefined && (
        <Typography.Paragraph type="secondary">{t('assignees.overrideManyHint', { count: assignees.length })}</Typography.Paragraph>
      )}
      <Flex gap={12} wrap>
        <Form.Item name="extraMinutes" label={t('assignees.extraMinutes')} rules={[zodRule(shape.extraMinutes)]}>
          <InputNumber min={0} max={MAX_LIMIT_MINUTES} precision={0} suffix={t('exams.minutes')} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="extraAttempts" label={t('assignees.extraAttempts')} rules={[zodRule(shape.extraAttempts)]}>
          <InputNumber min={0} max={MAX_ATTEMPTS} precision={0} style={{ width: 120 }} />
        </Form.Item>
      </Flex>
      <Form.Item name="openAt" label={t('assignees.personalOpen')} extra={t('assignees.personalWindowHint')}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%', maxWidth: 240 }} />
      </Form.Item>
      <Form.Item name="closeAt" label={t('assignees.personalClose')}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%', maxWidth: 240 }} />
      </Form.Item>
      <Form.Item name="dueAt" label={t('assignees.dueAt')} extra={t('assignees.dueAtHint')}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%', maxWidth: 240 }} />
      </Form.Item>
    </FormDialog>
  );
}
