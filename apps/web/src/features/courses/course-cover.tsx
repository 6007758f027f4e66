import { PictureOutlined } from '@ant-design/icons';
import { mediaContentPath } from '@cloud-classroom/shared/media';
import { Tooltip } from 'antd';
import { useState } from 'react';
import { apiUrl } from '../../lib/http-client';
import { useCourseMessages } from './courses-messages';
import './course-cover.css';

export type CourseCoverProps = {
  /** The cover's media id; null shows the empty frame. */
  media: number | null;
  width: number;
  /** Says whose cover it is, for assistive technology. */
  alt: string;
};

/**
 * A course's cover image at 16:9, or an empty frame while it has none. The browser loads it
 * itself (the content route takes the session from the token cookie), so it caches it too.
 */
export function CourseCover(props: CourseCoverProps) {
  // A new image starts without the last one's failure.
  return <CoverImage key={props.media ?? 'none'} {...props} />;
}

function CoverImage({ media, width, alt }: CourseCoverProps) {
  const t = useCourseMessages();
  const [failed, setFailed] = useState(false);
  const frame = { width, height: Math.round((width * 9) / 16) };
  if (media === null) {
    return (
      <span className="course-cover course-cover-empty" style={frame}>
        <PictureOutlined />
      </span>
    );
  }
  if (failed) {
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
      <img src={apiUrl(mediaContentPath(media))} alt={alt} loading="lazy" onError={() => setFailed(true)} />
    </span>
  );
}
