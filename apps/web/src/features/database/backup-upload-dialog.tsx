import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { BACKUP_UPLOAD_MAX_BYTES, type Backup } from '@cloud-classroom/shared/database';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import { Alert, Button, Flex, Form, Progress, Typography, Upload } from 'antd';
import { useState } from 'react';
import { FormDialog } from '../../components/list-page/form-dialog';
import { uploadBackup } from './database-api';
import type { DatabaseTranslate } from './database-messages';

type UploadValues = { file?: File };

const MAX_SIZE = formatFileSize(BACKUP_UPLOAD_MAX_BYTES);

function FilePicker({ value, onChange, id, t }: { value?: File; onChange?: (file: File) => void; id?: string; t: DatabaseTranslate }) {
  return (
    <Flex vertical gap={4} align="flex-start">
      <Upload
        accept=".sqlite,.db,.dump,.sql,.backup"
        showUploadList={false}
        beforeUpload={(file) => {
          onChange?.(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button id={id} icon={<UploadOutlined />}>
          {t('database.chooseFile')}
        </Button>
      </Upload>
      {value && (
        <Typography.Text style={{ wordBreak: 'break-all' }}>
          <PaperClipOutlined /> {value.name} ({formatFileSize(value.size)})
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Uploads a backup with a progress bar; the server answers only once it has checked the file. */
export function BackupUploadDialog({ open, onClose, onUploaded, t }: { open: boolean; onClose: () => void; onUploaded: (backup: Backup) => void; t: DatabaseTranslate }) {
  const [percent, setPercent] = useState<number>();
  return (
    <FormDialog<UploadValues, Backup>
      open={open}
      title={t('database.uploadTitle')}
      successMessage={t('database.uploaded')}
      onSubmit={async ({ file }, request) => {
        setPercent(0);
        try {
          // The file rule has already refused an empty field.
          return await uploadBackup(file as File, { ...request, onProgress: (progress) => setPercent(progress.percent) });
        } finally {
          setPercent(undefined);
        }
      }}
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
        <FilePicker t={t} />
      </Form.Item>
      {percent !== undefined && (
        <Flex vertical gap={4} className="backup-upload-progress">
          <Progress percent={percent} status="active" />
          <Typography.Text type="secondary">{t('database.uploading')}</Typography.Text>
        </Flex>
      )}
    </FormDialog>
  );
}
