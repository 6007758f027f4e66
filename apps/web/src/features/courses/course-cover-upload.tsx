import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { MEDIA_TYPES } from '@cloud-classroom/shared/media';
import { Button, Flex, Typography, Upload } from 'antd';
import { useState } from 'react';
import { CourseCover } from './course-cover';
import { useCourseMessages } from './courses-messages';
import { uploadMedia } from './courses-api';

/** The image types `POST api/media` takes (png, jpeg, webp), from the shared list. */
const IMAGE_MIMES: readonly string[] = Object.values(MEDIA_TYPES)
  .filter((type) => type.kind === 'image')
  .map((type) => type.mime);
const ACCEPT = [...IMAGE_MIMES, '.png', '.jpg', '.jpeg', '.webp'].join(',');

export type CourseCoverUploadProps = {
  /** The cover's media id; null or absent: none. */
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
};

/**
 * The course form's cover field: picking an image uploads it at once to the media library
 * (`POST api/media`) and the field keeps its id; the image is shown, and can be replaced or removed.
 */
export function CourseCoverUpload({ value, onChange, id }: CourseCoverUploadProps) {
  const t = useCourseMessages();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const cover = value ?? null;

  const upload = async (file: File) => {
    // The server decides by the first bytes; this only spares a wrong file the trip.
    if (!IMAGE_MIMES.includes(file.type)) {
      setProblem(t('courses.cover.wrongType'));
      return;
    }
    setProblem(undefined);
    setUploading(true);
    try {
      const media = await uploadMedia(file, file.name);
      onChange?.(media.id);
    } catch {
      // The http client has shown why.
    } finally {
      setUploading(false);
    }
  };

  return (
    <Flex gap={12} align="flex-start" wrap>
      <CourseCover media={cover} width={160} alt={t('courses.cover.alt')} />
      <Flex vertical gap={4} align="flex-start">
        <Flex gap={8} wrap>
          <Upload
            accept={ACCEPT}
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button id={id} icon={<UploadOutlined />} loading={uploading}>
              {uploading ? t('courses.cover.uploading') : cover === null ? t('courses.cover.upload') : t('courses.cover.replace')}
            </Button>
          </Upload>
          {cover !== null && (
            <Button icon={<DeleteOutlined />} disabled={uploading} onClick={() => onChange?.(null)}>
              {t('courses.cover.remove')}
            </Button>
          )}
        </Flex>
        <Typography.Text type="secondary">{t('courses.cover.hint')}</Typography.Text>
        {problem !== undefined && <Typography.Text type="danger">{problem}</Typography.Text>}
      </Flex>
    </Flex>
  );
}
