import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { Select, TreeSelect } from 'antd';
import { useCheckPermission } from '../../components/permission';
import { useDeptTree } from '../users/use-dept-tree';
import { roleOptionsQuery } from './applicants-api';

// What the server lets read the pickers' lists (`GET api/roles/all`, `GET api/dept`); anyone else
// would get a 403, which ends on the 401 page, so their pickers stay closed instead.
const ROLE_READERS: readonly PermissionCheck[] = ['admin', 'roles:list', 'user:add', 'user:edit', 'applicant:add'];
const DEPT_READERS: readonly PermissionCheck[] = ['admin', 'dept:list', 'user:list', 'applicant:add'];

/** A Form.Item's control: the ids chosen. */
type IdsControl = {
  id?: string;
  value?: number[];
  onChange?: (ids: number[]) => void;
  placeholder: string;
  /** Shown instead of the placeholder to someone who may not read the list. */
  cannotList: string;
};

/** Department subtrees for an assignment rule (terms' and exams'), loaded a level at a time; `openTo` opens the tree to a rule's chosen ones. */
export function DeptTargetPicker({ id, value, onChange, placeholder, cannotList, openTo }: IdsControl & { openTo?: readonly number[] }) {
  const mayList = useCheckPermission()(DEPT_READERS);
  const depts = useDeptTree({ openTo, enabled: mayList });
  return (
    <TreeSelect
      id={id}
      multiple
      value={value}
      onChange={onChange}
      treeData={depts.treeData}
      loadData={(node) => depts.loadChildren(Number(node.value))}
      placeholder={mayList ? placeholder : cannotList}
      disabled={!mayList}
      loading={depts.loading}
      showSearch={{ treeNodeFilterProp: 'title' }}
      popupMatchSelectWidth={false}
    />
  );
}

/** Roles for an assignment rule (terms' and exams'). */
export function RoleTargetPicker({ id, value, onChange, placeholder, cannotList }: IdsControl) {
  const mayList = useCheckPermission()(ROLE_READERS);
  const roles = useQuery({ ...roleOptionsQuery(), enabled: mayList });
  return (
    <Select
      id={id}
      mode="multiple"
      value={value}
      onChange={onChange}
      placeholder={mayList ? placeholder : cannotList}
      disabled={!mayList}
      loading={roles.isFetching}
      showSearch={{ optionFilterProp: 'label' }}
      options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
    />
  );
}
