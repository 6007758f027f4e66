import { certRuleCreateSchema, type CertRuleCreate } from '@cloud-classroom/shared/certificates';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Radio, Select } from 'antd';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { createCertRule, templateOptionsQuery } from './certificates-api';
import { CertificateGroundFields } from './certificate-ground-fields';
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
  const [form] = Form.useForm<CertRuleValues>();
  const trigger = Form.useWatch('trigger', form) ?? 'exam';
  const courseId = Form.useWatch('courseId', form);
  const templates = useQuery(templateOptionsQuery());

  return (
    <FormDialog<CertRuleValues, { id: number }>
      open
      form={form}
      title={t('issueRules.addTitle')}
      width={600}
      labelWidth={100}
      initialValues={{ trigger: 'exam' }}
      successMessage={t('issueRules.saved')}
      onSubmit={(values, request) => createCertRule(certRuleBodyOf(values), request)}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Alert type="info" showIcon title={t('issueRules.addHint')} style={{ marginBottom: 16 }} />
      <Form.Item name="templateId" label={t('issueRules.template')} rules={[zodRule(shape.templateId)]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('issue.chooseTemplate')}
          loading={templates.isFetching}
          options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
        />
      </Form.Item>
      <Form.Item name="trigger" label={t('issueRules.trigger')}>
        <Radio.Group
          optionType="button"
          options={TRIGGERS.map((value) => ({ value, label: t(`issueRules.trigger.${value}`) }))}
          onChange={() => form.setFieldsValue({ examId: undefined, courseId: undefined, termId: undefined })}
        />
      </Form.Item>
      <CertificateGroundFields ground={trigger} courseId={courseId} onCourseChange={() => form.setFieldValue('termId', undefined)} />
    </FormDialog>
  );
}
