import { certRuleCreateSchema, type CertRuleCreate } from '@cloud-classroom/shared/certificates';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Radio, Select } from 'antd';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { useCheckPermission } from '../../components/permission';
import { courseTermsQuery } from '../applicants/applicants-api';
import { courseOptionsQuery } from '../exams/exams-api';
import { createCertRule, examOptionsQuery, templateOptionsQuery } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';

export type RuleTrigger = 'exam' | 'term';
const TRIGGERS: readonly RuleTrigger[] = ['exam', 'term'];

export type CertRuleValues = {
  templateId?: number;
  trigger: RuleTrigger;
  examId?: number;
  courseId?: number;
  termId?: number;
};

const EXAM_READERS: readonly PermissionCheck[] = ['admin', 'exam:list'];
const COURSE_READERS: readonly PermissionCheck[] = ['admin', 'course:list'];

const shape = certRuleCreateSchema.shape;

/** The body the server takes: only the chosen trigger's exam or term, the other null. */
export function certRuleBodyOf(values: CertRuleValues): CertRuleCreate {
  return {
    templateId: values.templateId as number,
    examId: values.trigger === 'exam' ? (values.examId ?? null) : null,
    termId: values.trigger === 'term' ? (values.termId ?? null) : null,
  };
}

export type CertRuleFormDialogProps = {
  onClose: () => void;
  onSaved: () => void;
};

/** Adds a rule issuing a template to whoever passes an exam, or completes a course's term. */
export function CertRuleFormDialog({ onClose, onSaved }: CertRuleFormDialogProps) {
  const t = useCertificateMessages();
  const may = useCheckPermission();
  const [form] = Form.useForm<CertRuleValues>();
  const trigger = Form.useWatch('trigger', form) ?? 'exam';
  const courseId = Form.useWatch('courseId', form);
  const templates = useQuery(templateOptionsQuery());
  const exams = useQuery({ ...examOptionsQuery(), enabled: trigger === 'exam' && may(EXAM_READERS) });
  const courses = useQuery({ ...courseOptionsQuery(), enabled: trigger === 'term' && may(COURSE_READERS) });
  const terms = useQuery({ ...courseTermsQuery(courseId ?? 0), enabled: trigger === 'term' && courseId !== undefined && may(COURSE_READERS) });

  return (
    <FormDialog<CertRuleValues, { id: number }>
      open
      form={form}
      title={t('rules.addTitle')}
      width={600}
      labelWidth={100}
      initialValues={{ trigger: 'exam' }}
      successMessage={t('rules.saved')}
      onSubmit={(values, request) => createCertRule(certRuleBodyOf(values), request)}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Alert type="info" showIcon title={t('rules.addHint')} style={{ marginBottom: 16 }} />
      <Form.Item name="templateId" label={t('rules.template')} rules={[zodRule(shape.templateId)]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('issue.chooseTemplate')}
          loading={templates.isFetching}
          options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
        />
      </Form.Item>
      <Form.Item name="trigger" label={t('rules.trigger')}>
        <Radio.Group
          optionType="button"
          options={TRIGGERS.map((value) => ({ value, label: t(`rules.trigger.${value}`) }))}
          onChange={() => form.setFieldsValue({ examId: undefined, courseId: undefined, termId: undefined })}
        />
      </Form.Item>
      {trigger === 'exam' && (
        <Form.Item name="examId" label={t('issue.exam')} rules={[{ required: true, message: t('issue.chooseExam') }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('issue.chooseExam')}
            loading={exams.isFetching}
            options={(exams.data ?? []).map((exam) => ({ value: exam.id, label: exam.title }))}
          />
        </Form.Item>
      )}
      {trigger === 'term' && (
        <>
          <Form.Item name="courseId" label={t('issue.course')} rules={[{ required: true, message: t('issue.chooseCourse') }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('issue.chooseCourse')}
              loading={courses.isFetching}
              options={(courses.data ?? []).map((course) => ({ value: course.id, label: course.title }))}
              // Terms belong to one course.
              onChange={() => form.setFieldValue('termId', undefined)}
            />
          </Form.Item>
          <Form.Item name="termId" label={t('issue.term')} rules={[{ required: true, message: t('issue.chooseTerm') }]}>
            <Select
              placeholder={t('issue.chooseTerm')}
              disabled={courseId === undefined}
              loading={terms.isFetching}
              options={(terms.data ?? []).map((term) => ({ value: term.id, label: term.name }))}
            />
          </Form.Item>
        </>
      )}
    </FormDialog>
  );
}
