import { EXAM_TARGETS, examAssignSchema, type ExamAssignBody, type ExamTarget } from '@cloud-classroom/shared/exams';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { App, DatePicker, Form, Radio, Select, TreeSelect } from 'antd';
import type { Dayjs } from 'dayjs';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { useCheckPermission } from '../../components/permission';
import { courseTermsQuery, roleOptionsQuery } from '../applicants/applicants-api';
import { dueAtOf } from '../applicants/enrol-dialog';
import { UserPicker } from '../applicants/user-picker';
import { useDeptTree } from '../users/use-dept-tree';
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

// What the server lets read the pickers' lists (`GET api/roles/all`, `GET api/dept`); anyone else
// would get a 403, which ends on the 401 page, so their pickers stay closed instead.
const ROLE_READERS: readonly PermissionCheck[] = ['admin', 'roles:list', 'user:add', 'user:edit', 'applicant:add'];
const DEPT_READERS: readonly PermissionCheck[] = ['admin', 'dept:list', 'user:list', 'applicant:add'];

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
  const may = useCheckPermission();
  const mayListRoles = may(ROLE_READERS);
  const mayListDepts = may(DEPT_READERS);
  const roles = useQuery({ ...roleOptionsQuery(), enabled: mayListRoles && target === 'role' });
  const depts = useDeptTree({ enabled: mayListDepts && target === 'dept' });
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
          <TreeSelect
            multiple
            treeData={depts.treeData}
            loadData={(node) => depts.loadChildren(Number(node.value))}
            placeholder={mayListDepts ? t('assignees.deptsPlaceholder') : t('assignees.cannotListDepts')}
            disabled={!mayListDepts}
            loading={depts.loading}
            showSearch={{ treeNodeFilterProp: 'title' }}
            popupMatchSelectWidth={false}
          />
        </Form.Item>
      )}
      {target === 'role' && (
        <Form.Item name="roleIds" preserve label={t('assignees.roles')} extra={t('assignees.rolesHint')} rules={[idsRule]}>
          <Select
            mode="multiple"
            placeholder={mayListRoles ? t('assignees.rolesPlaceholder') : t('assignees.cannotListRoles')}
            disabled={!mayListRoles}
            loading={roles.isFetching}
            showSearch={{ optionFilterProp: 'label' }}
            options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
          />
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
