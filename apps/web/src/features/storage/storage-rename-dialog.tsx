import { localStorageRenameSchema, type LocalStorage } from '@cloud-classroom/shared/storage';
import { Form } from 'antd';
import { LimitedInput } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { renameFile } from './storage-api';
import type { StorageTranslate } from './storage-messages';

/** Changes the name people see and download the file as; the stored file keeps its own. */
export function StorageRenameDialog({
  file,
  onClose,
  onRenamed,
  t,
}: {
  file: LocalStorage | undefined;
  onClose: () => void;
  onRenamed: () => void;
  t: StorageTranslate;
}) {
  return (
    <FormDialog<{ name: string }>
      open={file !== undefined}
      title={t('storage.renameTitle')}
      initialValues={{ name: file?.name }}
      successMessage={t('storage.renamed')}
      onSubmit={async ({ name }, request) => {
        if (file !== undefined) await renameFile(localStorageRenameSchema.parse({ id: file.id, name }), request);
      }}
      onSuccess={onRenamed}
      onClose={onClose}
    >
      <Form.Item name="name" label={t('storage.name')} rules={[zodRule(localStorageRenameSchema.shape.name)]}>
        <LimitedInput schema={localStorageRenameSchema.shape.name} />
      </Form.Item>
    </FormDialog>
  );
}
