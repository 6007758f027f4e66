import { BACKUP_UPLOAD_MAX_BYTES, type Backup } from '@cloud-classroom/shared/database';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import { Alert, Form } from 'antd';
import { FilePicker } from '../../components/form/file-picker';
import { UploadProgressBar, useUploadProgress } from '../../components/form/upload-progress';
import { FormDialog } from '../../components/list-page/form-dialog';
import { uploadBackup } from './database-api';
import type { DatabaseTranslate } from './database-messages';

type UploadValues = { file?: File };

const MAX_SIZE = formatFileSize(BACKUP_UPLOAD_MAX_BYTES);

/** Uploads a backup with a progress bar; the server answers only once it has checked the file. */
export function BackupUploadDialog({ open, onClose, onUploaded, t }: { open: boolean; onClose: () => void; onUploaded: (backup: Backup) => void; t: DatabaseTranslate }) {
  const { percent, track } = useUploadProgress();
  return (
    <FormDialog<UploadValues, Backup>
      open={open}
      title={t('database.uploadTitle')}
      successMessage={t('database.uploaded')}
      // The file rule has already refused an empty field.
      onSubmit={({ file }, request) => track((onProgress) => uploadBackup(file as File, { ...request, onProgress }))}
      onSuccess={onUploaded}
      onClose={onClose}
    >
      <Alert type="info" showIcon title={t('database.uploadHelp')} style={{ marginBottom: 16 }} />
      <Form.Item
        name="file"
        label={t('database.name')}
        required
        rules={[
          {
            validator: async (_rule, file: File | undefined) => {
              if (file === undefined) throw new Error(t('database.fileRequired'));
              if (file.size > BACKUP_UPLOAD_MAX_BYTES) throw new Error(t('database.tooLarge', { size: MAX_SIZE }));
            },
          },
        ]}
      >
        <FilePicker chooseLabel={t('database.chooseFile')} accept=".sqlite,.db,.dump,.sql,.backup" />
      </Form.Item>
      <UploadProgressBar percent={percent} label={t('database.uploading')} />
    </FormDialog>
  );
}
