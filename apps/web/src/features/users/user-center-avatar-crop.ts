/**
 * The geometry of the avatar cropper: a square viewport over the picture, which covers it at
 * every zoom. A view is the zoom and where the picture's top-left corner sits in the viewport.
 */

export const CROP_VIEWPORT = 240;
/** Twice the largest avatar the app shows, so it stays sharp on high-density screens. */
export const AVATAR_OUTPUT_SIZE = 256;
export const MAX_ZOOM = 3;

export type ImageSize = { width: number; height: number };
export type CropView = { zoom: number; x: number; y: number };
export type SourceSquare = { x: number; y: number; side: number };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

// At zoom 1 the picture's shorter side just fills the viewport.
const scaleOf = (size: ImageSize, zoom: number) => (CROP_VIEWPORT / Math.min(size.width, size.height)) * zoom;

export function displayedSize(size: ImageSize, view: CropView): ImageSize {
  const scale = scaleOf(size, view.zoom);
  return { width: size.width * scale, height: size.height * scale };
}

/** Keeps the picture covering the viewport: no empty band can enter the crop. */
export function clampView(size: ImageSize, view: CropView): CropView {
  const zoom = clamp(view.zoom, 1, MAX_ZOOM);
  const shown = displayedSize(size, { ...view, zoom });
  return {
    zoom,
    x: clamp(view.x, CROP_VIEWPORT - shown.width, 0),
    y: clamp(view.y, CROP_VIEWPORT - shown.height, 0),
  };
}

export function centeredView(size: ImageSize): CropView {
  const shown = displayedSize(size, { zoom: 1, x: 0, y: 0 });
  return { zoom: 1, x: (CROP_VIEWPORT - shown.width) / 2, y: (CROP_VIEWPORT - shown.height) / 2 };
}

export function moveView(size: ImageSize, view: CropView, dx: number, dy: number): CropView {
  return clampView(size, { ...view, x: view.x + dx, y: view.y + dy });
}

/** Zooms about the viewport's centre, so what is in the middle stays there. */
export function zoomView(size: ImageSize, view: CropView, zoom: number): CropView {
  const before = scaleOf(size, view.zoom);
  const centreX = (CROP_VIEWPORT / 2 - view.x) / before;
  const centreY = (CROP_VIEWPORT / 2 - view.y) / before;
  const after = scaleOf(size, clamp(zoom, 1, MAX_ZOOM));
  return clampView(size, { zoom, x: CROP_VIEWPORT / 2 - centreX * after, y: CROP_VIEWPORT / 2 - centreY * after });
}

/** The part of the original picture, in its own pixels, that the viewport shows. */
export function sourceSquare(size: ImageSize, view: CropView): SourceSquare {
  const scale = scaleOf(size, view.zoom);
  // 0 - x rather than -x: a view at the edge gives 0, not -0.
  return { x: (0 - view.x) / scale, y: (0 - view.y) / scale, side: CROP_VIEWPORT / scale };
}

/** The square drawn at AVATAR_OUTPUT_SIZE; undefined where the browser cannot draw (the caller then sends the original). */
export async function cropToBlob(image: CanvasImageSource, square: SourceSquare, type: string): Promise<Blob | undefined> {
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_OUTPUT_SIZE;
  canvas.height = AVATAR_OUTPUT_SIZE;
  const context = canvas.getContext('2d');
  if (context === null) return undefined;
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, square.x, square.y, square.side, square.side, 0, 0, AVATAR_OUTPUT_SIZE, AVATAR_OUTPUT_SIZE);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob ?? undefined), type, 0.92));
}
