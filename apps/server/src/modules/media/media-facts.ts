import { buffer } from 'node:stream/consumers';
import type * as Mp4BoxModule from 'mp4box';
import type * as PdfLibModule from 'pdf-lib';
import type { FileStore } from '../../files/file-store.js';
import { WEBM_HEAD_BYTES, webmDuration } from './webm-duration.js';

// Loaded on the first upload of their kind: most starts never see one.
let mp4box: Promise<typeof Mp4BoxModule> | undefined;
let pdfLib: Promise<typeof PdfLibModule> | undefined;

/** A file whose container or document the server cannot read; the message says why, for the log. */
export class UnreadableMedia extends Error {
  override name = 'UnreadableMedia';
}

/** Read from an MP4 file per request to the store: its boxes' headers, and the movie box whole. */
const MP4_CHUNK_BYTES = 1024 * 1024;
/** A movie box larger than this is no training video's: such a file is refused rather than read on. */
const MP4_MAX_READ_BYTES = 256 * 1024 * 1024;

async function read(files: FileStore, key: string, start: number, end: number): Promise<Buffer> {
  const content = await files.get(key, { start, end });
  if (content === undefined) throw new UnreadableMedia(`${key} is not in the store`);
  return buffer(content);
}

/**
 * An MP4's duration in seconds, from the movie header (duration / timescale), by mp4box fed the
 * stored file a chunk at a time. mp4box answers where it wants to read next, which skips the media
 * data: a file whose movie box comes last (no `+faststart`) costs a few reads, not the whole file.
 * Null for a fragmented movie that states no duration at all.
 */
export async function mp4Duration(files: FileStore, key: string, size: number): Promise<number | null> {
  const { createFile, MP4BoxBuffer } = await (mp4box ??= import('mp4box'));
  const movie = createFile(false);
  let duration: number | null | undefined;
  let failure: string | undefined;
  movie.onReady = (info) => {
    // A fragmented movie states its length in the movie extends header, if anywhere.
    const fragments = info.fragment_duration;
    if (info.duration > 0 && info.timescale > 0) duration = info.duration / info.timescale;
    else if (fragments !== undefined && fragments.num > 0 && fragments.den > 0) duration = fragments.num / fragments.den;
    else duration = null;
  };
  movie.onError = (_module, message) => {
    failure = message;
  };
  let position = 0;
  let fed = 0;
  while (duration === undefined && failure === undefined && position < size) {
    if (fed >= MP4_MAX_READ_BYTES) throw new UnreadableMedia(`no movie box in the first ${MP4_MAX_READ_BYTES} bytes read`);
    const chunk = await read(files, key, position, Math.min(size, position + MP4_CHUNK_BYTES) - 1);
    fed += chunk.length;
    const arrayBuffer = chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.length);
    const next = movie.appendBuffer(MP4BoxBuffer.fromArrayBuffer(arrayBuffer, position), position + chunk.length >= size);
    position = next > position ? next : position + chunk.length;
  }
  if (duration === undefined && failure === undefined) movie.flush();
  if (failure !== undefined) throw new UnreadableMedia(failure);
  if (duration === undefined) throw new UnreadableMedia('no movie box');
  return duration;
}

/** A WebM's duration in seconds from its Segment Info (see `webmDuration`), reading only the file's head. */
export async function storedWebmDuration(files: FileStore, key: string, size: number): Promise<number | null> {
  if (size === 0) throw new UnreadableMedia('empty');
  const head = await read(files, key, 0, Math.min(size, WEBM_HEAD_BYTES) - 1);
  try {
    return webmDuration(head, size <= WEBM_HEAD_BYTES);
  } catch (error) {
    throw new UnreadableMedia(error instanceof Error ? error.message : String(error));
  }
}

/** How many pages a PDF has, by pdf-lib, which reads it whole (the caller limits its size). */
export async function pdfPageCount(files: FileStore, key: string, size: number): Promise<number> {
  const { PDFDocument } = await (pdfLib ??= import('pdf-lib'));
  const bytes = await read(files, key, 0, Math.max(0, size - 1));
  let pages: number;
  try {
    const document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    pages = document.getPageCount();
  } catch (error) {
    throw new UnreadableMedia(error instanceof Error ? error.message : String(error));
  }
  if (pages < 1) throw new UnreadableMedia('no pages');
  return pages;
}
