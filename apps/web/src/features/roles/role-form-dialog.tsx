import { DATA_SCOPES } from '@cloud-classroom/shared/users';
import { mayManage, roleStanding } from '@cloud-classroom/shared/role-level';
import { MAX_ROLE_LEVEL, MIN_ROLE_LEVEL, roleCreateSchema, type Role, type RoleCreate } from '@cloud-classroom/shared/roles';
import { Form, Input, InputNumber, Select, type FormRule } from 'antd';
import { LimitedTextArea } from '../../components/form/limited-input';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { DeptCheckTree } from './dept-check-tree';
import { useRoleMessages } from './roles-messages';
import { createRole, updateRole } from './roles-api';

type RoleFormValues = {
  name: string;
  level?: number;
  dataScope: (typeof DATA_SCOPES)[number];
  depts?: number[];
  description?: string;
  descriptionEn?: string;
};

const { shape } = roleCreateSchema;

function toBody(values: RoleFormValues): RoleCreate {
  return {
    name: values.name,
    level: values.level ?? MAX_ROLE_LEVEL,
    dataScope: values.dataScope,
    description: values.description ?? null,
    descriptionEn: values.descriptionEn ?? null,
    // Departments matter only to a custom scope; the server keeps none for the others.
    depts: values.dataScope === '自定义' ? (values.depts ?? []).map((id) => ({ id })) : [],
  };
}

export function RoleFormDialog({
  editing,
  callerLevel,
  onClose,
  onSaved,
}: {
  /** undefined: closed; null: a new role; a role: edit it. */
  editing: Role | null | undefined;
  callerLevel: number | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useRoleMessages();
  const tl = useListMessages();
  const [form] = Form.useForm<RoleFormValues>();
  const dataScope = Form.useWatch('dataScope', form);
  const lowest = callerLevel ?? MIN_ROLE_LEVEL;

  const levelRules: FormRule[] = [
    zodRule(shape.level),
    {
      validator: async (_, level: number | null | undefined) => {
        if (callerLevel === null) throw new Error(t('roles.noLevel'));
        if (typeof level === 'number' && !mayManage({ isAdmin: false, level: lowest }, roleStanding(level))) {
          throw new Error(t('roles.levelHint', { level: lowest }));
        }
      },
    },
  ];

  // The shared schema's whole-role rule (a custom scope needs a department), asked about the departments alone.
  const deptsRule: FormRule = ({ getFieldValue }) => ({
    validator: async (_, depts: number[] | undefined) => {
      const scopeAndDepts = { dataScope: getFieldValue('dataScope') as RoleFormValues['dataScope'], depts: (depts ?? []).map((id) => ({ id })) };
      const result = roleCreateSchema.safeParse({ name: 'any', level: MAX_ROLE_LEVEL, ...scopeAndDepts });
      if (!result.success && result.error.issues.some((issue) => issue.path[0] === 'depts')) throw new Error(t('roles.chooseDepts'));
    },
  });

  return (
    <FormDialog<RoleFormValues>
      open={editing !== undefined}
      form={form}
      title={editing ? t('roles.editTitle') : t('roles.addTitle')}
      width={560}
      initialValues={
        editing
          ? {
              name: editing.name,
              level: editing.level,
              dataScope: editing.dataScope,
              depts: editing.depts.map((dept) => dept.id),
              description: editing.description ?? undefined,
              descriptionEn: editing.descriptionEn ?? undefined,
            }
          : { level: MAX_ROLE_LEVEL, dataScope: '本级', depts: [] }
      }
      successMessage={editing ? tl('list.updated') : tl('list.created')}
      onSubmit={(values, request) => (editing ? updateRole({ ...toBody(values), id: editing.id }, request) : createRole(toBody(values), request))}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('roles.name')} rules={[zodRule(shape.name)]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="level" label={t('roles.level')} rules={levelRules} extra={t('roles.levelHint', { level: lowest })}>
        <InputNumber min={lowest} max={MAX_ROLE_LEVEL} precision={0} style={{ width: '100%', maxWidth: 200 }} />
      </Form.Item>
      <Form.Item name="dataScope" label={t('roles.dataScope')} rules={[zodRule(shape.dataScope)]} extra={t('roles.scopeHint')}>
        <Select options={DATA_SCOPES.map((scope) => ({ value: scope, label: t(`roles.scope.${scope}`) }))} style={{ maxWidth: 240 }} />
      </Form.Item>
      {dataScope === '自定义' && (
        <Form.Item name="depts" label={t('roles.depts')} rules={[deptsRule]} required>
          <DeptCheckTree openTo={editing?.depts.map((dept) => dept.id) ?? []} />
        </Form.Item>
      )}
      <Form.Item name="description" label={t('roles.description')} rules={[zodRule(shape.description)]}>
        <LimitedTextArea schema={shape.description} rows={3} />
      </Form.Item>
      <Form.Item name="descriptionEn" label={t('roles.descriptionEn')} rules={[zodRule(shape.descriptionEn)]} extra={t('roles.descriptionEnHint')}>
        <LimitedTextArea schema={shape.descriptionEn} rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
