import { EXAM_TARGETS, examAssignSchema, type ExamAssignBody, type ExamTarget } from '@cloud-classroom/shared/exams';
import { useQuery } from '@tanstack/react-query';
import { App, DatePicker, Form, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { courseTermsQuery } from '../applicants/applicants-api';
import { dueAtOf } from '../applicants/enrol-dialog';
import { DeptTargetPicker, RoleTargetPicker } from '../applicants/target-pickers';
import { UserPicker } from '../applicants/user-picker';
import { assignExam, courseOptionsQuery } from './exams-api';
import { useExamMessages } from './exams-messages';

/** Each target keeps its own choice (its field is `preserve`d while hidden), so switching back and forth loses nothing. */
export type AssignValues = {
  target: ExamTarget;
  userIds: number[];
  deptIds: number[];
  roleIds: number[];
  courseId?: number;
  termIds: number[];
  dueAt: Dayjs | null;
};

const IDS_FIELD: Record<ExamTarget, 'userIds' | 'deptIds' | 'roleIds' | 'termIds'> = { users: 'userIds', dept: 'deptIds', role: 'roleIds', term: 'termIds' };

export function assignBodyOf(values: AssignValues): ExamAssignBody {
  return { target: values.target, ids: values[IDS_FIELD[values.target]], dueAt: dueAtOf(values.dueAt) };
}

export type AssignDialogProps = { examId: number; onClose: () => void; onAssigned: () => void };

/**
 * Assigns the exam to named people, to department subtrees (with whoever joins them later), to
 * roles, or to a term's applicants; says how many were new and how many already had it.
 */
export function AssignDialog({ examId, onClose, onAssigned }: AssignDialogProps) {
  const t = useExamMessages();
  const { message } = App.useApp();
  const [form] = Form.useForm<AssignValues>();
  const target = Form.useWatch('target', form) ?? 'users';
  const courseId = Form.useWatch('courseId', form);
  const courses = useQuery({ ...courseOptionsQuery(), enabled: target === 'term' });
  const terms = useQuery({ ...courseTermsQuery(courseId ?? 0), enabled: target === 'term' && courseId !== undefined });
  const idsRule = zodRule(examAssignSchema.shape.ids);

  return (
    <FormDialog<AssignValues, Awaited<ReturnType<typeof assignExam>>>
      open
      form={form}
      title={t('assignees.assignTitle')}
      width={620}
      labelWidth={100}
      initialValues={{ target: 'users', userIds: [], deptIds: [], roleIds: [], termIds: [], dueAt: null }}
      // The server names the ids `ids`: they stand in the field of the chosen target.
      fields={{ ids: IDS_FIELD[target] }}
      successMessage={null}
      onSubmit={(values, request) => assignExam(examId, assignBodyOf(values), request)}
      onSuccess={(result) => {
        message.success(t('assignees.assigned', { created: result.created, existing: result.existing }));
        onAssigned();
      }}
      onClose={onClose}
    >
      <Form.Item name="target" label={t('assignees.target')}>
        <Radio.Group optionType="button" options={EXAM_TARGETS.map((value) => ({ value, label: t(`assignees.target.${value}`) }))} />
      </Form.Item>
      {target === 'users' && (
        <Form.Item name="userIds" preserve label={t('assignees.people')} extra={t('assignees.peopleHint')} rules={[idsRule]}>
          <UserPicker placeholder={t('assignees.peoplePlaceholder')} />
        </Form.Item>
      )}
      {target === 'dept' && (
        <Form.Item name="deptIds" preserve label={t('assignees.depts')} extra={t('assignees.deptsHint')} rules={[idsRule]}>
          <DeptTargetPicker placeholder={t('assignees.deptsPlaceholder')} cannotList={t('assignees.cannotListDepts')} />
        </Form.Item>
      )}
      {target === 'role' && (
        <Form.Item name="roleIds" preserve label={t('assignees.roles')} extra={t('assignees.rolesHint')} rules={[idsRule]}>
          <RoleTargetPicker placeholder={t('assignees.rolesPlaceholder')} cannotList={t('assignees.cannotListRoles')} />
        </Form.Item>
      )}
      {target === 'term' && (
        <>
          <Form.Item name="courseId" preserve label={t('assignees.course')}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('assignees.chooseCourse')}
              // Terms belong to one course.
              onChange={() => form.setFieldValue('termIds', [])}
              loading={courses.isFetching}
              options={(courses.data ?? []).map((course) => ({ value: course.id, label: course.title }))}
            />
          </Form.Item>
          <Form.Item name="termIds" preserve label={t('assignees.terms')} extra={t('assignees.termsHint')} rules={[idsRule]}>
            <Select
              mode="multiple"
              placeholder={t('assignees.chooseTerms')}
              disabled={courseId === undefined}
              loading={terms.isFetching}
              options={(terms.data ?? []).map((term) => ({ value: term.id, label: term.name }))}
            />
          </Form.Item>
        </>
      )}
      <Form.Item name="dueAt" label={t('assignees.dueAt')} extra={t('assignees.dueAtHint')}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%', maxWidth: 240 }} />
      </Form.Item>
    </FormDialog>
  );
}
