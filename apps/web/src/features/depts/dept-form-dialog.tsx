import { deptCreateSchema, type Dept, type DeptCreate } from '@cloud-classroom/shared/depts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, InputNumber, Radio } from 'antd';
import { LimitedInput } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { zodRule } from '../../components/list-page/zod-rule';
import { LazyParentSelect } from '../../components/tree/lazy-parent-select';
import { useDeptMessages } from './depts-messages';
import { createDept, deptChildrenQuery, deptParentsQuery, updateDept } from './depts-api';

export type DeptFormValues = {
  name: string;
  deptSort: number;
  /** eladmin's 顶级部门 yes/no: the parent picker shows only for "no". */
  topLevel: boolean;
  pid?: number;
  enabled: boolean;
};

const shape = deptCreateSchema.shape;

export function deptBodyOf(values: DeptFormValues): DeptCreate {
  return {
    name: values.name.trim(),
    deptSort: values.deptSort,
    enabled: values.enabled,
    pid: values.topLevel || values.pid === undefined ? null : values.pid,
  };
}

function initialValuesOf(dept: Dept | undefined): DeptFormValues {
  if (dept === undefined) return { name: '', deptSort: 999, topLevel: true, enabled: true };
  return { name: dept.name, deptSort: dept.deptSort, topLevel: dept.pid === null, pid: dept.pid ?? undefined, enabled: dept.enabled };
}

export type DeptFormDialogProps = {
  open: boolean;
  /** The department to edit; absent adds one. */
  dept?: Dept;
  onClose: () => void;
  onSaved: () => void;
};

export function DeptFormDialog({ open, dept, onClose, onSaved }: DeptFormDialogProps) {
  const t = useDeptMessages();
  const tl = useListMessages();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<DeptFormValues>();
  const topLevel = Form.useWatch('topLevel', form) ?? (dept === undefined || dept.pid === null);
  const editing = dept !== undefined;

  // Editing asks for the tree around the department without it and its subtree; adding starts from the top level.
  const parents = useQuery({ ...deptParentsQuery(dept?.id), enabled: open && !topLevel });

  return (
    <FormDialog<DeptFormValues>
      open={open}
      title={editing ? t('depts.editTitle') : t('depts.addTitle')}
      form={form}
      initialValues={initialValuesOf(dept)}
      width={520}
      labelWidth={96}
      onSubmit={(values, request) => {
        const body = deptBodyOf(values);
        return editing ? updateDept({ ...body, id: dept.id }, request) : createDept(body, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('depts.name')} rules={[zodRule(shape.name)]}>
        <LimitedInput schema={shape.name} />
      </Form.Item>
      <Form.Item name="deptSort" label={t('depts.deptSort')} rules={[{ required: true, message: tl('list.required') }, zodRule(shape.deptSort)]}>
        <InputNumber min={0} max={999_999} precision={0} style={{ width: '100%', maxWidth: 200 }} />
      </Form.Item>
      <Form.Item name="topLevel" label={t('depts.topLevel')}>
        <Radio.Group
          optionType="button"
          options={[
            { label: tl('list.yes'), value: true },
            { label: tl('list.no'), value: false },
          ]}
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('depts.enabled')}>
        <Radio.Group
          optionType="button"
          options={[
            { label: t('depts.enable'), value: true },
            { label: t('depts.disable'), value: false },
          ]}
        />
      </Form.Item>
      {!topLevel && (
        <Form.Item name="pid" label={t('depts.pid')} rules={[{ required: true, message: t('depts.pidRequired') }]}>
          <LazyParentSelect<Dept>
            roots={parents.data ?? []}
            loading={parents.isPending}
            loadChildren={(pid) => queryClient.fetchQuery(deptChildrenQuery(pid))}
            exclude={dept?.id}
            placeholder={t('depts.pidPlaceholder')}
          />
        </Form.Item>
      )}
    </FormDialog>
  );
}
