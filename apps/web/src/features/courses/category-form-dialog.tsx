import { categoryCreateSchema, type Category, type CategoryCreate } from '@cloud-classroom/shared/courses';
import { Form, InputNumber } from 'antd';
import { LimitedInput } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { zodRule } from '../../components/list-page/zod-rule';
import { CategoryTreeSelect } from './category-tree-select';
import { useCourseMessages } from './courses-messages';
import { createCategory, updateCategory } from './courses-api';

export type CategoryFormValues = {
  name: string;
  /** 0: the top level. */
  pid: number;
  sort: number;
};

const shape = categoryCreateSchema.shape;

export function categoryBodyOf(values: CategoryFormValues): CategoryCreate {
  return { name: values.name.trim(), pid: values.pid === 0 ? null : values.pid, sort: values.sort };
}

export type CategoryFormDialogProps = {
  /** The category to edit; absent adds one. */
  category?: Category;
  /** Where a new category goes (the row's "add below"); the top level when absent. */
  parent?: Category;
  onClose: () => void;
  onSaved: () => void;
};

export function CategoryFormDialog({ category, parent, onClose, onSaved }: CategoryFormDialogProps) {
  const t = useCourseMessages();
  const tl = useListMessages();
  const editing = category !== undefined;
  const initialValues: CategoryFormValues = editing
    ? { name: category.name, pid: category.pid ?? 0, sort: category.sort }
    : { name: '', pid: parent?.id ?? 0, sort: 999 };
  const title = editing
    ? t('courses.category.editTitle')
    : parent === undefined
      ? t('courses.category.addTitle')
      : t('courses.category.addChildTitle', { name: parent.name });

  return (
    <FormDialog<CategoryFormValues>
      open
      title={title}
      initialValues={initialValues}
      width={520}
      labelWidth={96}
      onSubmit={(values, request) => {
        const body = categoryBodyOf(values);
        return editing ? updateCategory({ ...body, id: category.id }, request) : createCategory(body, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('courses.category.name')} rules={[zodRule(shape.name)]}>
        <LimitedInput schema={shape.name} />
      </Form.Item>
      <Form.Item name="pid" label={t('courses.category.pid')} rules={[{ required: true, message: tl('list.required') }]}>
        {/* A category cannot go under itself or anything below it: those are left out of the picker. */}
        <CategoryTreeSelect exclude={category?.id} topLabel={t('courses.category.top')} />
      </Form.Item>
      <Form.Item name="sort" label={t('courses.category.sort')} rules={[{ required: true, message: tl('list.required') }, zodRule(shape.sort)]}>
        <InputNumber min={0} max={999_999} precision={0} style={{ width: '100%', maxWidth: 200 }} />
      </Form.Item>
    </FormDialog>
  );
}
