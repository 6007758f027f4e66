import {
  DEPLOY_EXTENSIONS,
  DEPLOY_PLATFORMS,
  DEPLOY_VERSION_MESSAGE,
  deployUpdateSchema,
  deployUploadFieldsSchema,
  type DeployPackage,
  type DeployPlatform,
} from '@cloud-classroom/shared/deploy';
import { Form, Select } from 'antd';
import { FilePicker } from '../../components/form/file-picker';
import { LimitedInput, LimitedTextArea } from '../../components/form/limited-input';
import { UploadProgressBar, useUploadProgress } from '../../components/form/upload-progress';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { updatePackage, uploadPackage } from './deploy-api';
import type { DeployTranslate } from './deploy-messages';

type DescriptionValues = { name: string; version: string; platform: DeployPlatform; releaseNotes?: string };
type UploadValues = DescriptionValues & { file?: File };

const TYPES = DEPLOY_EXTENSIONS.map((extension) => `.${extension}`).join(', ');

const extensionOf = (name: string) => (name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '');

/** The check the server makes first on the file's name, so a wrong file is refused before its bytes travel. */
export function fileProblem(file: File | undefined, t: DeployTranslate): string | undefined {
  if (file === undefined) return t('deploy.fileRequired');
  if (!(DEPLOY_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return t('deploy.wrongType', { types: TYPES });
  return undefined;
}

/** Name, version, platform and notes: what describes a version, in both dialogs. */
function DescriptionFields({ t }: { t: DeployTranslate }) {
  const shape = deployUploadFieldsSchema.shape;
  return (
    <>
      <Form.Item name="name" label={t('deploy.name')} required rules={[zodRule(shape.name)]}>
        <LimitedInput schema={shape.name} placeholder={t('deploy.nameHint')} />
      </Form.Item>
      <Form.Item name="version" label={t('deploy.version')} required rules={[zodRule(shape.version, { [DEPLOY_VERSION_MESSAGE]: t('deploy.versionFormat') })]}>
        <LimitedInput schema={shape.version} placeholder={t('deploy.versionHint')} />
      </Form.Item>
      <Form.Item name="platform" label={t('deploy.platform')} required rules={[zodRule(shape.platform)]}>
        <Select options={DEPLOY_PLATFORMS.map((platform) => ({ value: platform, label: t(`deploy.platform.${platform}`) }))} />
      </Form.Item>
      <Form.Item name="releaseNotes" label={t('deploy.releaseNotes')} rules={[zodRule(shape.releaseNotes)]}>
        <LimitedTextArea schema={shape.releaseNotes} rows={4} />
      </Form.Item>
    </>
  );
}

/** Publishes a version: its description and file; a progress bar shows how far the bytes have gone. */
export function DeployUploadDialog({ open, onClose, onUploaded, t }: { open: boolean; onClose: () => void; onUploaded: (published: DeployPackage) => void; t: DeployTranslate }) {
  const { percent, track } = useUploadProgress();
  return (
    <FormDialog<UploadValues, DeployPackage>
      open={open}
      title={t('deploy.uploadTitle')}
      initialValues={{ platform: 'windows' }}
      successMessage={t('deploy.uploaded')}
      width={600}
      onSubmit={({ file, ...values }, request) =>
        // The file rule has already refused an empty field.
        track((onProgress) => uploadPackage(deployUploadFieldsSchema.parse(values), file as File, { ...request, onProgress }))
      }
      onSuccess={onUploaded}
      onClose={onClose}
    >
      <DescriptionFields t={t} />
      <Form.Item
        name="file"
        label={t('deploy.file')}
        required
        extra={t('deploy.limits', { types: TYPES })}
        rules={[
          {
            validator: async (_rule, file: File | undefined) => {
              const problem = fileProblem(file, t);
              if (problem !== undefined) throw new Error(problem);
            },
          },
        ]}
      >
        <FilePicker chooseLabel={t('deploy.chooseFile')} accept={DEPLOY_EXTENSIONS.map((extension) => `.${extension}`).join(',')} />
      </Form.Item>
      <UploadProgressBar percent={percent} label={t('deploy.uploading')} />
    </FormDialog>
  );
}

/** Changes what describes a version; its file and checksum stay. */
export function DeployEditDialog({ item, onClose, onSaved, t }: { item: DeployPackage | undefined; onClose: () => void; onSaved: () => void; t: DeployTranslate }) {
  return (
    <FormDialog<DescriptionValues>
      open={item !== undefined}
      title={t('deploy.editTitle')}
      initialValues={item === undefined ? {} : { name: item.name, version: item.version, platform: item.platform, releaseNotes: item.releaseNotes }}
      successMessage={t('deploy.edited')}
      width={600}
      onSubmit={async (values, request) => {
        if (item !== undefined) await updatePackage(deployUpdateSchema.parse({ ...values, id: item.id }), request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <DescriptionFields t={t} />
    </FormDialog>
  );
}
