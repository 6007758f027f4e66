import { formatFileSize } from '@cloud-classroom/shared/file-size';
import {
  localStorageUploadQuerySchema,
  STORABLE_EXTENSIONS,
  STORAGE_MAX_BYTES,
  type LocalStorage,
} from '@cloud-classroom/shared/storage';
import { Alert, Form, Spin } from 'antd';
import { useState } from 'react';
import { FilePicker } from '../../components/form/file-picker';
import { LimitedInput } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { uploadFile } from './storage-api';
import type { StorageTranslate } from './storage-messages';

type UploadValues = { name?: string; file?: File };

const TYPES = STORABLE_EXTENSIONS.join(', ');
const MAX_SIZE = formatFileSize(STORAGE_MAX_BYTES);

const extensionOf = (name: string) => (name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '');

/** The same checks the server makes first, so a wrong file is refused before its bytes travel. */
export function fileProblem(file: File | undefined, t: StorageTranslate): string | undefined {
  if (file === undefined) return t('storage.fileRequired');
  if (!(STORABLE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return t('storage.wrongType', { types: TYPES });
  if (file.size > STORAGE_MAX_BYTES) return t('storage.tooLarge', { size: MAX_SIZE });
  return undefined;
}

/** Upload with an optional display name; the OK button spins and a note shows while the bytes travel. */
export function StorageUploadDialog({
  open,
  onClose,
  onUploaded,
  t,
}: {
  open: boolean;
  onClose: () => void;
  onUploaded: (stored: LocalStorage) => void;
  t: StorageTranslate;
}) {
  const [uploading, setUploading] = useState(false);
  return (
    <FormDialog<UploadValues, LocalStorage>
      open={open}
      title={t('storage.uploadTitle')}
      successMessage={t('storage.uploaded')}
      onSubmit={async ({ name, file }, request) => {
        setUploading(true);
        try {
          // The file rule has already refused an empty field.
          return await uploadFile(file as File, name?.trim() || undefined, request);
        } finally {
          setUploading(false);
        }
      }}
      onSuccess={onUploaded}
      onClose={onClose}
    >
      <Form.Item
        name="file"
        label={t('storage.file')}
        required
        extra={t('storage.limits', { size: MAX_SIZE, types: TYPES })}
        rules={[
          {
            validator: async (_rule, file: File | undefined) => {
              const problem = fileProblem(file, t);
              if (problem !== undefined) throw new Error(problem);
            },
          },
        ]}
      >
        <FilePicker chooseLabel={t('storage.chooseFile')} accept={STORABLE_EXTENSIONS.map((extension) => `.${extension}`).join(',')} />
      </Form.Item>
      <Form.Item name="name" label={t('storage.name')} rules={[zodRule(localStorageUploadQuerySchema.shape.name)]}>
        <LimitedInput schema={localStorageUploadQuerySchema.shape.name} allowClear  placeholder={t('storage.nameHint')} />
      </Form.Item>
      {uploading && (
        <Alert type="info" showIcon icon={<Spin size="small" />} title={t('storage.uploading')} />
      )}
    </FormDialog>
  );
}
