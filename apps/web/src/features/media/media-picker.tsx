import { DownloadOutlined, FilePdfOutlined, FileImageOutlined, FolderOpenOutlined, UploadOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { localizeMessage } from '@cloud-classroom/shared/messages';
import { MEDIA_TYPES, type Media, type MediaKind } from '@cloud-classroom/shared/media';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Flex, Input, Modal, Pagination, Progress, Spin, Typography, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { downloadFile } from '../../lib/download';
import { HttpError } from '../../lib/http-client';
import { useLanguage } from '../../lib/use-menu-title';
import { mediaKeys, mediaList, uploadMedia } from './media-api';
import { formatDuration } from './media-format';
import { useMediaMessages, type MediaTranslate } from './media-messages';
import './media-picker.css';

const PAGE_SIZE = 8;

const KIND_ICONS = { video: VideoCameraOutlined, document: FilePdfOutlined, image: FileImageOutlined } as const;

/** The file types a kind takes, as the server reads them (by their bytes; the name only steers the browser's chooser). */
function typesOf(kind: MediaKind) {
  return Object.entries(MEDIA_TYPES).filter(([, type]) => type.kind === kind);
}

function acceptOf(kind: MediaKind): string {
  return typesOf(kind)
    .flatMap(([extension, { mime }]) => [`.${extension}`, ...(extension === 'jpeg' ? ['.jpg'] : []), mime])
    .join(',');
}

function matchesKind(file: File, kind: MediaKind): boolean {
  const extension = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
  return typesOf(kind).some(([known, { mime }]) => file.type === mime || known === extension || (known === 'jpeg' && extension === 'jpg'));
}

/** A video's length or a document's pages, as the server read them from the file. */
export function mediaLength(media: Pick<Media, 'durationSeconds' | 'pages'>, t: MediaTranslate): string | undefined {
  if (media.durationSeconds !== undefined) return formatDuration(media.durationSeconds);
  if (media.pages !== undefined) return t('media.pages', { count: media.pages });
  return undefined;
}

function describe(media: Media, t: MediaTranslate): string {
  return [formatFileSize(media.size), mediaLength(media, t)].filter(Boolean).join(' · ');
}

function MediaLibrary({ kind, open, chosenId, onPick, onClose }: { kind: MediaKind; open: boolean; chosenId?: number; onPick: (media: Media) => void; onClose: () => void }) {
  const t = useMediaMessages();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(0);
  const { data, isFetching } = useQuery({ ...mediaList.page({ kind, q, page, size: PAGE_SIZE, sort: 'createTime,desc' }), enabled: open });
  return (
    <Modal open={open} title={t(`media.libraryTitle.${kind}`)} footer={null} onCancel={onClose} width={640} destroyOnHidden>
      <Flex gap={8} style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          aria-label={t('media.search')}
          placeholder={t('media.search')}
          onSearch={(value) => {
            setQ(value.trim());
            setPage(0);
          }}
        />
        <Button icon={<DownloadOutlined />} onClick={() => void downloadFile('api/media/download', { kind, q: q || undefined, sort: ['createTime,desc'] }, t('media.exportName'))}>
          {t('media.export')}
        </Button>
      </Flex>
      <Spin spinning={isFetching}>
        {data !== undefined && data.content.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('media.empty')} />
        ) : (
          <ul className="media-library">
            {(data?.content ?? []).map((media) => (
              <li key={media.id} className="media-library__item">
                <Flex vertical style={{ minWidth: 0, flex: 1 }}>
                  <Typography.Text ellipsis={{ tooltip: media.name }}>{media.name}</Typography.Text>
                  <Typography.Text type="secondary">{`${describe(media, t)} · ${media.createTime}`}</Typography.Text>
                </Flex>
                <Button size="small" type={media.id === chosenId ? 'default' : 'primary'} disabled={media.id === chosenId} onClick={() => onPick(media)}>
                  {media.id === chosenId ? t('media.picked') : t('media.pick')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Spin>
      <Pagination
        size="small"
        align="end"
        current={page + 1}
        pageSize={PAGE_SIZE}
        total={data?.totalElements ?? 0}
        hideOnSinglePage
        showSizeChanger={false}
        onChange={(next) => setPage(next - 1)}
      />
    </Modal>
  );
}

type Uploading = { name: string; percent: number; controller: AbortController };

/**
 * A lesson's file as a form control: the file chosen (value), picked from the library of its
 * kind or uploaded here with a progress bar of the bytes actually sent, and a cancel button.
 */
export function MediaPicker({ kind, value, onChange, id }: { kind: MediaKind; value?: Media | null; onChange?: (media: Media | null) => void; id?: string }) {
  const t = useMediaMessages();
  const language = useLanguage();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [uploading, setUploading] = useState<Uploading>();
  const [problem, setProblem] = useState<string>();
  const current = useRef<Uploading>(undefined);

  // Leaving the page cancels an upload still going.
  useEffect(() => () => current.current?.controller.abort(), []);

  const upload = async (file: File) => {
    setProblem(undefined);
    if (!matchesKind(file, kind)) {
      setProblem(t(`media.wrongType.${kind}`));
      return;
    }
    const started: Uploading = { name: file.name, percent: 0, controller: new AbortController() };
    current.current = started;
    setUploading(started);
    try {
      const media = await uploadMedia(file, {
        signal: started.controller.signal,
        silent: true,
        onProgress: ({ percent }) => setUploading((state) => (state === undefined ? state : { ...state, percent })),
      });
      void queryClient.invalidateQueries({ queryKey: mediaKeys.all });
      onChange?.(media);
      void message.success(t('media.uploaded', { name: media.name }));
    } catch (error) {
      if (started.controller.signal.aborted) void message.info(t('media.cancelled'));
      else if (error instanceof HttpError && error.status !== 401 && error.status !== 403) {
        // `file: is larger than …` names the upload's field: the sentence is what matters here.
        setProblem(localizeMessage(language, error.message.replace(/^file: /, '')));
      }
    } finally {
      current.current = undefined;
      setUploading(undefined);
    }
  };

  const Icon = KIND_ICONS[kind];
  return (
    <Flex vertical gap={8} id={id}>
      {value ? (
        <Flex gap={8} align="center" className="media-picker__chosen">
          <Icon style={{ fontSize: 20, color: '#1677ff' }} />
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Text strong ellipsis={{ tooltip: value.name }}>
              {value.name}
            </Typography.Text>
            <Typography.Text type="secondary">{describe(value, t)}</Typography.Text>
          </Flex>
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('media.none')}</Typography.Text>
      )}
      {uploading ? (
        <Flex vertical gap={4} role="group" aria-label={t('media.uploading', { name: uploading.name })}>
          <Typography.Text ellipsis>{t('media.uploading', { name: uploading.name })}</Typography.Text>
          <Flex gap={8} align="center">
            <Progress percent={uploading.percent} status="active" style={{ flex: 1, margin: 0 }} />
            <Button size="small" onClick={() => uploading.controller.abort()}>
              {t('media.cancelUpload')}
            </Button>
          </Flex>
        </Flex>
      ) : (
        <Flex gap={8} wrap>
          <Button icon={<FolderOpenOutlined />} onClick={() => setLibraryOpen(true)}>
            {t('media.choose')}
          </Button>
          <Upload
            accept={acceptOf(kind)}
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={<UploadOutlined />}>{t('media.upload')}</Button>
          </Upload>
        </Flex>
      )}
      <Typography.Text type="secondary">{t(`media.accepts.${kind}`)}</Typography.Text>
      {problem !== undefined && (
        <Typography.Text type="danger" role="alert">
          {problem}
        </Typography.Text>
      )}
      <MediaLibrary
        kind={kind}
        open={libraryOpen}
        chosenId={value?.id}
        onClose={() => setLibraryOpen(false)}
        onPick={(media) => {
          onChange?.(media);
          setLibraryOpen(false);
        }}
      />
    </Flex>
  );
}
