import { DownloadOutlined, FilePdfOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { LessonType } from '@cloud-classroom/shared/courses';
import { mediaContentPath, type Media } from '@cloud-classroom/shared/media';
import { Alert, Button, Card, Empty, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { RichTextView } from '../../components/rich-text/rich-text-view';
import { apiUrl, http } from '../../lib/http-client';
import { mediaLength } from '../media/media-picker';
import { useMediaMessages } from '../media/media-messages';
import { PdfCanvas } from '../progress/site/pdf-canvas';
import type { OutlineTranslate } from './outline-messages';

export type LessonPreviewValues = {
  title?: string;
  type?: LessonType;
  media?: Media | null;
  content?: string;
  completionPercent?: number | null;
  preview?: boolean;
};

/** Saves the PDF through the API (with the session's header), under its own name. */
async function downloadMedia(media: Media): Promise<void> {
  const blob = await http.get<Blob>(mediaContentPath(media.id), undefined, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = media.name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

function VideoPreview({ media, t }: { media: Media; t: OutlineTranslate }) {
  const [unplayable, setUnplayable] = useState(false);
  if (unplayable) return <Alert type="warning" showIcon title={t('lesson.videoUnplayable')} />;
  // Played straight from the API, with byte ranges, as the learner's player does.
  return <video key={media.id} className="lesson-preview__video" controls preload="metadata" src={apiUrl(mediaContentPath(media.id))} onError={() => setUnplayable(true)} />;
}

function DocumentPreview({ media, t }: { media: Media; t: OutlineTranslate }) {
  const tm = useMediaMessages();
  const [downloading, setDownloading] = useState(false);
  const [page, setPage] = useState(1);
  const [pages, setPages] = useState(media.pages ?? 0);
  return (
    <Flex vertical gap={8}>
      <Flex gap={12} align="center" className="lesson-preview__document" wrap>
        <FilePdfOutlined style={{ fontSize: 40, color: '#cf1322' }} aria-hidden />
        <Flex vertical style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text strong ellipsis={{ tooltip: media.name }}>
            {media.name}
          </Typography.Text>
          <Typography.Text type="secondary">{mediaLength(media, tm)}</Typography.Text>
        </Flex>
        <Button
          icon={<DownloadOutlined />}
          loading={downloading}
          onClick={() => {
            setDownloading(true);
            downloadMedia(media)
              .catch(() => undefined)
              .finally(() => setDownloading(false));
          }}
        >
          {t('lesson.downloadPdf')}
        </Button>
      </Flex>
      {/* The page as the learner's player draws it (pdf.js, loaded only when a document is previewed). */}
      <Flex gap={8} align="center" justify="center">
        <Button size="small" icon={<LeftOutlined />} aria-label={t('lesson.previousPage')} disabled={page <= 1} onClick={() => setPage(page - 1)} />
        <Typography.Text>{t('lesson.pageOf', { page, total: pages || '…' })}</Typography.Text>
        <Button size="small" icon={<RightOutlined />} aria-label={t('lesson.nextPage')} disabled={page >= pages} onClick={() => setPage(page + 1)} />
      </Flex>
      <div className="lesson-preview__pdf">
        <PdfCanvas key={media.id} url={apiUrl(mediaContentPath(media.id))} page={page} onPages={setPages} failedText={t('lesson.documentUnreadable')} />
      </div>
    </Flex>
  );
}

/** The lesson as a learner would open it, from the form's values as they are being edited. */
export function LessonPreview({ values, t }: { values: LessonPreviewValues; t: OutlineTranslate }) {
  const { title, type = 'video', media, content = '', completionPercent, preview } = values;
  return (
    <Card size="small" title={t('lesson.livePreview')} className="lesson-preview">
      <Flex vertical gap={12}>
        <Flex gap={8} align="center" wrap>
          <Typography.Title level={4} style={{ margin: 0, overflowWrap: 'anywhere' }}>
            {title?.trim() || '—'}
          </Typography.Title>
          <Tag>{t(`outline.type.${type}`)}</Tag>
          {preview && <Tag color="green">{t('outline.preview')}</Tag>}
        </Flex>
        {type !== 'text' &&
          (media ? (
            type === 'video' ? (
              <VideoPreview media={media} t={t} />
            ) : (
              <DocumentPreview media={media} t={t} />
            )
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('lesson.previewNoMedia')} />
          ))}
        {content.trim() !== '' ? (
          <RichTextView html={content} />
        ) : (
          type === 'text' && <Typography.Text type="secondary">{t('lesson.previewNoText')}</Typography.Text>
        )}
        {typeof completionPercent === 'number' && <Typography.Text type="secondary">{t('outline.completion', { percent: completionPercent })}</Typography.Text>}
      </Flex>
    </Card>
  );
}
