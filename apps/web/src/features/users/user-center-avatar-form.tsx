import { PictureOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import { AVATAR_MAX_BYTES, type User } from '@cloud-classroom/shared/users';
import { Alert, Avatar, Button, Flex, Slider, Typography, Upload } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { avatarUrl, useUserStore } from '../auth/user-store';
import { postAvatar } from './user-center-api';
import {
  centeredView,
  CROP_VIEWPORT,
  cropToBlob,
  displayedSize,
  MAX_ZOOM,
  moveView,
  sourceSquare,
  zoomView,
  type CropView,
  type ImageSize,
} from './user-center-avatar-crop';
import type { UserCenterTranslate } from './user-center-messages';

/** What the server accepts (it checks the bytes too), with the extension each is saved under. */
const AVATAR_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const EXTENSION_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The file's image type, from the browser or, where it gave none, from the extension. */
function imageTypeOf(file: File): string | undefined {
  if (file.type in AVATAR_TYPES) return file.type;
  if (file.type !== '') return undefined;
  return EXTENSION_TYPES[file.name.split('.').pop()?.toLowerCase() ?? ''];
}

const KEY_STEP = 10;

type Selection = { file: File; type: string; url: string };

function Cropper({
  selection,
  size,
  view,
  onLoad,
  onChange,
  imageRef,
  t,
}: {
  selection: Selection;
  size: ImageSize | undefined;
  view: CropView | undefined;
  onLoad: (size: ImageSize) => void;
  onChange: (view: CropView) => void;
  imageRef: RefObject<HTMLImageElement | null>;
  t: UserCenterTranslate;
}) {
  const drag = useRef<{ pointerX: number; pointerY: number; view: CropView } | undefined>(undefined);
  // A GIF would lose its animation on a canvas, so it is shown and sent as it is.
  const croppable = selection.type !== 'image/gif' && size !== undefined && view !== undefined;
  const shown = croppable ? displayedSize(size, view) : undefined;

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!croppable) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { pointerX: event.clientX, pointerY: event.clientY, view };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!croppable || start === undefined) return;
    onChange(moveView(size, start.view, event.clientX - start.pointerX, event.clientY - start.pointerY));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!croppable) return;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-KEY_STEP, 0],
      ArrowRight: [KEY_STEP, 0],
      ArrowUp: [0, -KEY_STEP],
      ArrowDown: [0, KEY_STEP],
    };
    const move = moves[event.key];
    if (move !== undefined) onChange(moveView(size, view, ...move));
    else if (event.key === '+' || event.key === '=') onChange(zoomView(size, view, view.zoom + 0.1));
    else if (event.key === '-') onChange(zoomView(size, view, view.zoom - 0.1));
    else return;
    event.preventDefault();
  };

  return (
    <Flex vertical gap={8} style={{ width: CROP_VIEWPORT }}>
      <div
        role="group"
        aria-label={t('userCenter.cropArea')}
        tabIndex={croppable ? 0 : -1}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = undefined)}
        onPointerCancel={() => (drag.current = undefined)}
        onKeyDown={onKeyDown}
        style={{
          position: 'relative',
          width: CROP_VIEWPORT,
          height: CROP_VIEWPORT,
          overflow: 'hidden',
          borderRadius: 8,
          background: '#f0f0f0',
          cursor: croppable ? 'move' : 'default',
          touchAction: 'none',
          userSelect: 'none',
        }}
      >
        <img
          ref={imageRef}
          src={selection.url}
          alt={selection.file.name}
          draggable={false}
          onLoad={(event) => onLoad({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
          style={
            shown && view
              ? { position: 'absolute', left: view.x, top: view.y, width: shown.width, height: shown.height, maxWidth: 'none' }
              : { width: '100%', height: '100%', objectFit: 'cover' }
          }
        />
        <div
          aria-hidden
          style={{
            position: 'absolute',
            inset: 0,
            borderRadius: '50%',
            boxShadow: '0 0 0 999px rgba(0, 0, 0, 0.45)',
            pointerEvents: 'none',
          }}
        />
      </div>
      {croppable && (
        <Flex align="center" gap={8}>
          <span>{t('userCenter.zoom')}</span>
          <Slider
            style={{ flex: 1 }}
            min={1}
            max={MAX_ZOOM}
            step={0.01}
            value={view.zoom}
            tooltip={{ formatter: (value) => `${Math.round((value ?? 1) * 100)}%` }}
            onChange={(zoom) => onChange(zoomView(size, view, zoom))}
            aria-label={t('userCenter.zoom')}
          />
        </Flex>
      )}
      <Typography.Text type="secondary">
        {selection.type === 'image/gif' ? t('userCenter.gifHint') : t('userCenter.cropHint')}
      </Typography.Text>
    </Flex>
  );
}

/**
 * Pick a picture, check it here against what the server accepts, place it in the circle,
 * then upload the cropped square (multipart field `avatar`).
 */
export function UserCenterAvatarForm({ user, t }: { user: User; t: UserCenterTranslate }) {
  const [selection, setSelection] = useState<Selection>();
  const [size, setSize] = useState<ImageSize>();
  const [view, setView] = useState<CropView>();
  const [problem, setProblem] = useState<string>();
  const imageRef = useRef<HTMLImageElement>(null);
  const maxSize = formatFileSize(AVATAR_MAX_BYTES);

  // The preview's object URL lives as long as it is shown.
  useEffect(() => {
    if (selection === undefined) return;
    return () => URL.revokeObjectURL(selection.url);
  }, [selection]);

  const choose = (file: File) => {
    const type = imageTypeOf(file);
    if (type === undefined) setProblem(t('userCenter.avatarWrongType'));
    else if (file.size > AVATAR_MAX_BYTES) setProblem(t('userCenter.avatarTooLarge', { size: maxSize }));
    else {
      setProblem(undefined);
      setSize(undefined);
      setView(undefined);
      setSelection({ file, type, url: URL.createObjectURL(file) });
    }
  };

  const clear = () => {
    setSelection(undefined);
    setSize(undefined);
    setView(undefined);
  };

  // No form fields: every refusal (a picture the server will not take, say) is a notification.
  const upload = useFormSubmit({
    mutationFn: async (chosen: Selection, request) => {
      const image = imageRef.current;
      const cropped =
        chosen.type !== 'image/gif' && size && view && image ? await cropToBlob(image, sourceSquare(size, view), chosen.type) : undefined;
      // A browser may write another format than asked (Safari has no WebP encoder): name it by what it wrote.
      const blob = cropped ?? chosen.file;
      const type = cropped ? cropped.type : chosen.type;
      return postAvatar(blob, `avatar.${AVATAR_TYPES[type] ?? AVATAR_TYPES[chosen.type]}`, request);
    },
    successMessage: t('userCenter.avatarSaved'),
    onSuccess: async () => {
      clear();
      await useUserStore.getState().getInfo();
    },
  });

  return (
    <Flex vertical gap={16}>
      <Flex gap={24} wrap align="flex-start">
        {selection ? (
          <Cropper
            selection={selection}
            size={size}
            view={view}
            onLoad={(loaded) => {
              // A picture the browser could not measure is still shown and sent, just not cropped.
              if (loaded.width === 0 || loaded.height === 0) return;
              setSize(loaded);
              setView(centeredView(loaded));
            }}
            onChange={setView}
            imageRef={imageRef}
            t={t}
          />
        ) : (
          <Flex vertical align="center" gap={8}>
            <Avatar size={120} src={avatarUrl(user)} icon={<UserOutlined />} alt={t('userCenter.currentAvatar')} />
            <Typography.Text type="secondary">{t('userCenter.currentAvatar')}</Typography.Text>
          </Flex>
        )}
      </Flex>
      <Typography.Text type="secondary">{t('userCenter.avatarRules', { size: maxSize })}</Typography.Text>
      {problem && <Alert type="error" showIcon title={problem} />}
      <Flex gap={8} wrap>
        <Upload
          accept={Object.keys(AVATAR_TYPES).join(',')}
          showUploadList={false}
          beforeUpload={(file) => {
            choose(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<PictureOutlined />} disabled={upload.submitting}>
            {t('userCenter.chooseImage')}
          </Button>
        </Upload>
        {selection && (
          <>
            <Button type="primary" icon={<UploadOutlined />} loading={upload.submitting} onClick={() => void upload.submit(selection)}>
              {t('userCenter.upload')}
            </Button>
            <Button disabled={upload.submitting} onClick={clear}>
              {t('userCenter.cancel')}
            </Button>
          </>
        )}
      </Flex>
    </Flex>
  );
}
