import { CLOUD_FILE_MAX_MB, cloudConfigUpdateSchema, type CloudConfig, type CloudConfigInput, type CloudFile } from '@cloud-classroom/shared/cloud-storage';
import { Alert, Form, Input, Switch } from 'antd';
import { FilePicker } from '../../components/form/file-picker';
import { UploadProgressBar, useUploadProgress } from '../../components/form/upload-progress';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { saveCloudConfig, uploadCloudFile } from './cloud-storage-api';
import type { CloudStorageTranslate } from './cloud-storage-messages';

/** Sends one file to the bucket; a progress bar shows how far its bytes have gone. */
export function CloudUploadDialog({ open, onClose, onUploaded, t }: { open: boolean; onClose: () => void; onUploaded: (file: CloudFile) => void; t: CloudStorageTranslate }) {
  const { percent, track } = useUploadProgress();
  return (
    <FormDialog<{ file?: File }, CloudFile>
      open={open}
      title={t('cloud.uploadTitle')}
      successMessage={t('cloud.uploaded')}
      width={520}
      onSubmit={({ file }, request) => track((onProgress) => uploadCloudFile(file as File, { ...request, onProgress }))}
      onSuccess={onUploaded}
      onClose={onClose}
    >
      <Form.Item
        name="file"
        label={t('cloud.file')}
        required
        extra={t('cloud.tooLarge', { mb: CLOUD_FILE_MAX_MB })}
        rules={[
          {
            validator: async (_rule, file: File | undefined) => {
              if (file === undefined) throw new Error(t('cloud.fileRequired'));
              if (file.size > CLOUD_FILE_MAX_MB * 1024 * 1024) throw new Error(t('cloud.tooLarge', { mb: CLOUD_FILE_MAX_MB }));
            },
          },
        ]}
      >
        <FilePicker chooseLabel={t('cloud.chooseFile')} />
      </Form.Item>
      <UploadProgressBar percent={percent} label={t('cloud.uploading')} />
    </FormDialog>
  );
}

/** The bucket's settings; the secret key is write-only (blank keeps the saved one). */
export function CloudConfigDialog({ config, open, onClose, onSaved, t }: { config: CloudConfig | undefined; open: boolean; onClose: () => void; onSaved: () => void; t: CloudStorageTranslate }) {
  const shape = cloudConfigUpdateSchema.shape;
  const initial: Partial<CloudConfigInput> =
    config === undefined ? {} : { endpoint: config.endpoint, region: config.region, bucket: config.bucket, accessKey: config.accessKey, pathStyle: config.pathStyle, publicDomain: config.publicDomain ?? '', secretKey: '' };
  return (
    <FormDialog<CloudConfigInput>
      open={open}
      title={t('cloud.configTitle')}
      initialValues={initial}
      width={600}
      labelWidth={130}
      onSubmit={async (values, request) => {
        await saveCloudConfig({ ...values, secretKey: values.secretKey ?? '', publicDomain: values.publicDomain ?? '' }, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      {config !== undefined && !config.secretsEnabled && <Alert type="warning" showIcon title={t('cloud.secretsDisabled')} style={{ marginBottom: 16 }} />}
      <Form.Item name="endpoint" label={t('cloud.endpoint')} required rules={[zodRule(shape.endpoint)]}>
        <Input placeholder="https://s3.example.com" />
      </Form.Item>
      <Form.Item name="region" label={t('cloud.region')} required rules={[zodRule(shape.region)]}>
        <Input placeholder="us-east-1" />
      </Form.Item>
      <Form.Item name="bucket" label={t('cloud.bucket')} required rules={[zodRule(shape.bucket)]}>
        <Input />
      </Form.Item>
      <Form.Item name="accessKey" label={t('cloud.accessKey')} required rules={[zodRule(shape.accessKey)]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="secretKey" label={t('cloud.secretKey')} required={config?.secretKeySet !== true} extra={config?.secretKeySet === true ? t('cloud.secretKept') : undefined}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="pathStyle" label={t('cloud.pathStyle')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="publicDomain" label={t('cloud.publicDomain')} rules={[zodRule(shape.publicDomain)]}>
        <Input placeholder={t('cloud.publicDomainHint')} />
      </Form.Item>
    </FormDialog>
  );
}
