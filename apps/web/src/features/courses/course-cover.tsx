import { PictureOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Spin, Tooltip } from 'antd';
import { useCourseMessages } from './courses-messages';
import { mediaImageQuery } from './courses-api';
import './course-cover.css';

export type CourseCoverProps = {
  /** The cover's media id; null shows the empty frame. */
  media: number | null;
  width: number;
  /** Says whose cover it is, for assistive technology. */
  alt: string;
};

/** A course's cover image at 16:9, or an empty frame while it has none. */
export function CourseCover({ media, width, alt }: CourseCoverProps) {
  const t = useCourseMessages();
  const image = useQuery({ ...mediaImageQuery(media ?? 0), enabled: media !== null });
  const frame = { width, height: Math.round((width * 9) / 16) };
  if (media === null) {
    return (
      <span className="course-cover course-cover-empty" style={frame}>
        <PictureOutlined />
      </span>
    );
  }
  if (image.isError) {
    return (
      <Tooltip title={t('courses.cover.unavailable')}>
        <span className="course-cover course-cover-empty" style={frame} role="img" aria-label={t('courses.cover.unavailable')}>
          <PictureOutlined />
        </span>
      </Tooltip>
    );
  }
  return (
    <span className="course-cover" style={frame}>
      {image.data === undefined ? <Spin size="small" /> : <img src={image.data} alt={alt} />}
    </span>
  );
}
