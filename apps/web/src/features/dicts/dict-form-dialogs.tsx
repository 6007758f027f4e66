import { dictBodySchema, dictDetailBodySchema, type Dict, type DictDetail } from '@cloud-classroom/shared/dicts';
import { Form, Input, InputNumber } from 'antd';
import { LimitedInput, LimitedTextArea } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { zodRule } from '../../components/list-page/zod-rule';
import { useDictMessages } from './dicts-messages';
import { createDict, createDictDetail, updateDict, updateDictDetail } from './dicts-api';

type DictFormValues = { name: string; description?: string };

export type DictFormDialogProps = {
  /** The dictionary to edit; absent adds one. */
  dict?: Dict;
  onClose: () => void;
  onSaved: () => void;
};

export function DictFormDialog({ dict, onClose, onSaved }: DictFormDialogProps) {
  const t = useDictMessages();
  const editing = dict !== undefined;
  return (
    <FormDialog<DictFormValues>
      open
      title={editing ? t('dicts.editTitle') : t('dicts.addTitle')}
      initialValues={{ name: dict?.name ?? '', description: dict?.description ?? '' }}
      width={500}
      onSubmit={(values, request) => {
        const body = { name: values.name.trim(), description: values.description?.trim() || null };
        return editing ? updateDict({ ...body, id: dict.id }, request) : createDict(body, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('dicts.name')} rules={[zodRule(dictBodySchema.shape.name)]}>
        <LimitedInput schema={dictBodySchema.shape.name} />
      </Form.Item>
      <Form.Item name="description" label={t('dicts.description')} rules={[zodRule(dictBodySchema.shape.description)]}>
        <LimitedTextArea schema={dictBodySchema.shape.description} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
    </FormDialog>
  );
}

type DictDetailFormValues = { label: string; labelEn?: string; value: string; dictSort: number };

export type DictDetailFormDialogProps = {
  /** The dictionary the entry belongs to. */
  dict: Dict;
  /** The entry to edit; absent adds one. */
  detail?: DictDetail;
  onClose: () => void;
  onSaved: () => void;
};

const detailShape = dictDetailBodySchema.shape;

export function DictDetailFormDialog({ dict, detail, onClose, onSaved }: DictDetailFormDialogProps) {
  const t = useDictMessages();
  const tl = useListMessages();
  const editing = detail !== undefined;
  return (
    <FormDialog<DictDetailFormValues>
      open
      title={editing ? t('dicts.editDetailTitle') : t('dicts.addDetailTitle')}
      initialValues={{ label: detail?.label ?? '', labelEn: detail?.labelEn ?? '', value: detail?.value ?? '', dictSort: detail?.dictSort ?? 999 }}
      width={500}
      onSubmit={(values, request) => {
        const body = {
          label: values.label.trim(),
          labelEn: values.labelEn?.trim() || null,
          value: values.value.trim(),
          dictSort: values.dictSort,
          dict: { id: dict.id },
        };
        return editing ? updateDictDetail({ ...body, id: detail.id }, request) : createDictDetail(body, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item label={t('dicts.dictName')}>
        <Input value={dict.name} disabled />
      </Form.Item>
      <Form.Item name="label" label={t('dicts.label')} rules={[zodRule(detailShape.label)]}>
        <LimitedInput schema={detailShape.label} />
      </Form.Item>
      <Form.Item name="labelEn" label={t('dicts.labelEn')} rules={[zodRule(detailShape.labelEn)]}>
        <LimitedInput schema={detailShape.labelEn} placeholder={t('dicts.labelEnPlaceholder')} />
      </Form.Item>
      <Form.Item name="value" label={t('dicts.value')} rules={[zodRule(detailShape.value)]}>
        <LimitedInput schema={detailShape.value} />
      </Form.Item>
      <Form.Item name="dictSort" label={t('dicts.dictSort')} rules={[{ required: true, message: tl('list.required') }, zodRule(detailShape.dictSort)]}>
        <InputNumber min={0} max={999_999} precision={0} style={{ width: '100%', maxWidth: 200 }} />
      </Form.Item>
    </FormDialog>
  );
}
