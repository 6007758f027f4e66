import { RULE_TARGETS, assignmentRuleCreateSchema, type AssignmentRule, type AssignmentRuleCreateBody, type RuleTarget } from '@cloud-classroom/shared/applicants';
import type { Term } from '@cloud-classroom/shared/courses';
import { DatePicker, Form, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { useApplicantMessages } from './applicants-messages';
import { createRule, updateRule } from './applicants-api';
import { dueAtOf } from './enrol-dialog';
import { DeptTargetPicker, RoleTargetPicker } from './target-pickers';
import { UserPicker } from './user-picker';

/** Each target keeps its own choice (its field is `preserve`d while hidden), so switching back and forth loses nothing. */
type RuleValues = {
  target: RuleTarget;
  deptIds: number[];
  roleIds: number[];
  userIds: number[];
  termId?: number;
  dueAt: Dayjs | null;
};

const IDS_FIELD: Record<RuleTarget, 'deptIds' | 'roleIds' | 'userIds'> = { dept: 'deptIds', role: 'roleIds', users: 'userIds' };

const shape = assignmentRuleCreateSchema.shape;

function initialValuesOf(rule: AssignmentRule | undefined, termId: number | undefined): RuleValues {
  const values: RuleValues = { target: rule?.target ?? 'dept', deptIds: [], roleIds: [], userIds: [], termId: rule?.termId ?? termId, dueAt: null };
  if (rule === undefined) return values;
  return { ...values, [IDS_FIELD[rule.target]]: rule.ids, dueAt: rule.dueAt === null ? null : dayjs(rule.dueAt) };
}

export function ruleBodyOf(values: RuleValues): AssignmentRuleCreateBody {
  return { target: values.target, ids: values[IDS_FIELD[values.target]], termId: values.termId ?? 0, dueAt: dueAtOf(values.dueAt) };
}

export type RuleFormDialogProps = {
  terms: readonly Term[];
  /** The rule to edit; absent adds one. */
  rule?: AssignmentRule;
  onClose: () => void;
  onSaved: () => void;
};

/** Adds or edits a rule assigning departments (with their subtrees), roles or named people to a term. */
export function RuleFormDialog({ terms, rule, onClose, onSaved }: RuleFormDialogProps) {
  const t = useApplicantMessages();
  const [form] = Form.useForm<RuleValues>();
  const target = Form.useWatch('target', form) ?? rule?.target ?? 'dept';
  const editing = rule !== undefined;
  // A rule's names follow its ids, less any deleted since; only a full list can be paired up.
  const knownNames = new Map(rule?.target === 'users' && rule.names.length === rule.ids.length ? rule.ids.map((id, index) => [id, rule.names[index]!]) : []);
  const idsRule = zodRule(shape.ids);

  return (
    <FormDialog<RuleValues>
      open
      form={form}
      title={editing ? t('rules.editTitle') : t('rules.addTitle')}
      width={620}
      labelWidth={100}
      initialValues={initialValuesOf(rule, terms.length === 1 ? terms[0]?.id : undefined)}
      // The server names the ids `ids`: they stand in the field of the chosen target.
      fields={{ ids: IDS_FIELD[target] }}
      onSubmit={(values, request) => {
        const body = ruleBodyOf(values);
        return editing ? updateRule({ ...body, id: rule.id }, request) : createRule(body, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="target" label={t('rules.target')}>
        <Radio.Group optionType="button" options={RULE_TARGETS.map((value) => ({ value, label: t(`rules.target.${value}`) }))} />
      </Form.Item>
      {target === 'dept' && (
        <Form.Item name="deptIds" preserve label={t('rules.depts')} extra={t('rules.deptsHint')} rules={[idsRule]}>
          <DeptTargetPicker
            openTo={rule?.target === 'dept' ? rule.ids : undefined}
            placeholder={t('rules.deptsPlaceholder')}
            cannotList={t('rules.cannotListDepts')}
          />
        </Form.Item>
      )}
      {target === 'role' && (
        <Form.Item name="roleIds" preserve label={t('rules.roles')} extra={t('rules.rolesHint')} rules={[idsRule]}>
          <RoleTargetPicker placeholder={t('rules.rolesPlaceholder')} cannotList={t('rules.cannotListRoles')} />
        </Form.Item>
      )}
      {target === 'users' && (
        <Form.Item name="userIds" preserve label={t('rules.users')} extra={t('applicants.peopleHint')} rules={[idsRule]}>
          <UserPicker knownNames={knownNames} placeholder={t('applicants.peoplePlaceholder')} />
        </Form.Item>
      )}
      <Form.Item name="termId" label={t('rules.term')} rules={[zodRule(shape.termId)]}>
        <Select placeholder={t('applicants.chooseTerm')} options={terms.map((term) => ({ value: term.id, label: term.name }))} />
      </Form.Item>
      <Form.Item name="dueAt" label={t('rules.dueAt')} extra={t('applicants.dueAtHint')}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%', maxWidth: 240 }} />
      </Form.Item>
    </FormDialog>
  );
}
