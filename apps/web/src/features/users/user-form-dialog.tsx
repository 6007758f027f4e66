import { mayManage, roleStanding } from '@cloud-classroom/shared/role-level';
import { GENDERS, userCreateSchema, type User, type UserCreate, type UserCreated } from '@cloud-classroom/shared/users';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Radio, Select, TreeSelect } from 'antd';
import { FormDialog } from '../../components/list-page/form-dialog';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { zodRule, type FieldSchema } from '../../components/list-page/zod-rule';
import { useDeptTree } from './use-dept-tree';
import { useUserMessages } from './user-messages';
import { callerStanding } from '../roles/roles-api';
import { createUser, roleOptionsQuery, updateUser } from './users-api';

type UserFormValues = {
  username: string;
  nickName: string;
  gender?: (typeof GENDERS)[number] | null;
  phone?: string;
  email?: string;
  enabled: boolean;
  deptId?: number;
  roleIds?: number[];
};

const { shape } = userCreateSchema;

// The form holds plain ids; the contract wants `{ id }` objects, so the schemas see them that way.
const deptIdSchema: FieldSchema = { safeParse: (value) => shape.dept.safeParse(value === undefined ? undefined : { id: value }) };
const roleIdsSchema: FieldSchema = {
  safeParse: (value) => shape.roles.safeParse(Array.isArray(value) ? value.map((id: unknown) => ({ id })) : value),
};

// As on the server: a name from before the user-name rule may stay, a new name must follow the rule.
const usernameSchema = (current: string | undefined): FieldSchema => ({
  safeParse: (value) => (current !== undefined && value === current ? { success: true } : shape.username.safeParse(value)),
});

function toBody(values: UserFormValues): UserCreate {
  return {
    username: values.username,
    nickName: values.nickName,
    gender: values.gender ?? null,
    phone: values.phone ?? null,
    email: values.email ?? null,
    enabled: values.enabled,
    dept: { id: values.deptId ?? 0 },
    roles: (values.roleIds ?? []).map((id) => ({ id })),
  };
}

export type CreatedUser = UserCreated & { username: string };

export type UserFormDialogProps = {
  /** undefined: closed; null: a new user; a user: edit them. */
  editing: User | null | undefined;
  /** The caller's best role level: roles above it cannot be given. */
  callerLevel: number | null | undefined;
  onClose: () => void;
  /** After a save; `created` carries the new user's first password. */
  onSaved: (created: CreatedUser | undefined) => void;
};

export function UserFormDialog({ editing, callerLevel, onClose, onSaved }: UserFormDialogProps) {
  const t = useUserMessages();
  const tl = useListMessages();
  const open = editing !== undefined;
  const roles = useQuery({ ...roleOptionsQuery(), enabled: open });
  const deptId = editing?.dept?.id;
  const me = callerStanding(callerLevel);
  const mayGive = (level: number) => me !== undefined && mayManage(me, roleStanding(level));
  const depts = useDeptTree({ openTo: deptId === undefined ? undefined : [deptId], enabled: open });

  const initialValues: Partial<UserFormValues> = editing
    ? {
        username: editing.username,
        nickName: editing.nickName,
        gender: editing.gender === '男' || editing.gender === '女' ? editing.gender : null,
        phone: editing.phone ?? undefined,
        email: editing.email ?? undefined,
        enabled: editing.enabled,
        deptId,
        roleIds: editing.roles.map((role) => role.id),
      }
    : { enabled: true };

  const genderLabel = { 男: t('users.male'), 女: t('users.female') } as const;

  return (
    <FormDialog<UserFormValues, CreatedUser | undefined>
      open={open}
      title={editing ? t('users.editTitle') : t('users.addTitle')}
      width={640}
      initialValues={initialValues}
      successMessage={editing ? tl('list.updated') : null}
      onSubmit={async (values, request) => {
        if (editing) {
          await updateUser({ ...toBody(values), id: editing.id }, request);
          return undefined;
        }
        return { ...(await createUser(toBody(values), request)), username: values.username };
      }}
      fields={{ dept: 'deptId', roles: 'roleIds' }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="username" label={t('users.username')} rules={[zodRule(usernameSchema(editing?.username))]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="nickName" label={t('users.nickName')} rules={[zodRule(shape.nickName)]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="phone" label={t('users.phone')} rules={[zodRule(shape.phone)]}>
        <Input autoComplete="off" inputMode="tel" />
      </Form.Item>
      <Form.Item name="email" label={t('users.email')} rules={[zodRule(shape.email)]}>
        <Input autoComplete="off" inputMode="email" />
      </Form.Item>
      <Form.Item name="gender" label={t('users.gender')} rules={[zodRule(shape.gender)]}>
        <Radio.Group options={GENDERS.map((gender) => ({ value: gender, label: genderLabel[gender] }))} />
      </Form.Item>
      <Form.Item name="enabled" label={t('users.enabled')} rules={[zodRule(shape.enabled)]}>
        <Radio.Group
          options={[
            { value: true, label: tl('list.enabled') },
            { value: false, label: tl('list.disabled') },
          ]}
        />
      </Form.Item>
      <Form.Item name="deptId" label={t('users.dept')} rules={[zodRule(deptIdSchema)]}>
        <TreeSelect
          treeData={depts.treeData}
          loadData={(node) => depts.loadChildren(Number(node.value))}
          placeholder={t('users.chooseDept')}
          loading={depts.loading}
          showSearch={{ treeNodeFilterProp: 'title' }}
          popupMatchSelectWidth={false}
        />
      </Form.Item>
      <Form.Item name="roleIds" label={t('users.roles')} rules={[zodRule(roleIdsSchema)]}>
        <Select
          mode="multiple"
          placeholder={t('users.chooseRoles')}
          loading={roles.isFetching}
          optionFilterProp="label"
          options={(roles.data ?? []).map((role) => ({
            value: role.id,
            label: role.name,
            // The server refuses to give a role more powerful than the caller's own.
            disabled: !mayGive(role.level),
          }))}
        />
      </Form.Item>
    </FormDialog>
  );
}
