/**
 * How much of a WebM file `webmDuration` needs: the EBML header, then the Segment's SeekHead,
 * Info and Tracks, which muxers write before the first Cluster.
 */
export const WEBM_HEAD_BYTES = 512 * 1024;

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const CLUSTER = 0x1f43b675;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
/** Nanoseconds per tick when the Info gives no TimecodeScale (the Matroska default: milliseconds). */
const DEFAULT_TIMECODE_SCALE = 1_000_000;

export class UnreadableWebm extends Error {
  override name = 'UnreadableWebm';
}

type Vint = { value: number; length: number; unknown: boolean };

/**
 * An EBML variable-size integer at `offset`: its length is told by the first set bit of the first
 * byte. An ID keeps that marker bit (`keepMarker`), a size drops it; a size of all ones is "unknown".
 */
function readVint(bytes: Buffer, offset: number, keepMarker: boolean): Vint | undefined {
  const first = bytes[offset];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (offset + length > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let index = 1; index < length; index += 1) {
    const byte = bytes[offset + index] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

type Element = { id: number; dataStart: number; size: number | undefined };

/** The element at `offset`; undefined when the bytes end inside its ID or size. */
function readElement(bytes: Buffer, offset: number): Element | undefined {
  const id = readVint(bytes, offset, true);
  if (id === undefined || id.length > 4) return undefined;
  const size = readVint(bytes, offset + id.length, false);
  if (size === undefined) return undefined;
  return { id: id.value, dataStart: offset + id.length + size.length, size: size.unknown ? undefined : size.value };
}

function readUnsigned(bytes: Buffer, start: number, size: number): number {
  let value = 0;
  for (let index = 0; index < size; index += 1) value = value * 256 + (bytes[start + index] ?? 0);
  return value;
}

function readFloat(bytes: Buffer, start: number, size: number): number | undefined {
  if (size === 4) return bytes.readFloatBE(start);
  if (size === 8) return bytes.readDoubleBE(start);
  return undefined;
}

/** Duration × TimecodeScale from a Segment's Info, in seconds; undefined when it gives none. */
function infoDuration(bytes: Buffer, start: number, end: number): number | undefined {
  let scale = DEFAULT_TIMECODE_SCALE;
  let duration: number | undefined;
  for (let offset = start; offset < end; ) {
    const child = readElement(bytes, offset);
    if (child?.size === undefined || child.dataStart + child.size > end) break;
    if (child.id === TIMECODE_SCALE && child.size <= 8) scale = readUnsigned(bytes, child.dataStart, child.size);
    if (child.id === DURATION) duration = readFloat(bytes, child.dataStart, child.size);
    offset = child.dataStart + child.size;
  }
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0 || scale <= 0) return undefined;
  return (duration * scale) / 1e9;
}

/**
 * The duration in seconds a WebM file's Segment Info states, from the file's first bytes (up to
 * WEBM_HEAD_BYTES of them, `complete` when they are the whole file); null when it states none, as
 * a live recording's does. Throws UnreadableWebm when the bytes are not an EBML document with a
 * Segment, or when the whole file ends inside its Segment's first elements.
 */
export function webmDuration(head: Buffer, complete: boolean): number | null {
  const header = readElement(head, 0);
  if (header?.id !== EBML_HEADER || header.size === undefined) throw new UnreadableWebm('no EBML header');
  const segment = readElement(head, header.dataStart + header.size);
  if (segment?.id !== SEGMENT) throw new UnreadableWebm('no Segment after the EBML header');
  // Bytes ending inside an element: the rest is beyond the head read, or the file was cut short.
  const endsEarly = () => {
    if (complete) throw new UnreadableWebm('the file ends inside its Segment');
    return null;
  };
  const segmentEnd = segment.size === undefined ? head.length : Math.min(head.length, segment.dataStart + segment.size);
  for (let offset = segment.dataStart; offset < segmentEnd; ) {
    const child = readElement(head, offset);
    if (child === undefined) return endsEarly();
    // A Cluster is media: the Info, if any, came before it. An element of unknown size cannot be
    // stepped over.
    if (child.id === CLUSTER || child.size === undefined) return null;
    const childEnd = child.dataStart + child.size;
    if (childEnd > head.length) return endsEarly();
    if (child.id === INFO) return infoDuration(head, child.dataStart, childEnd) ?? null;
    offset = childEnd;
  }
  return segment.dataStart >= head.length ? endsEarly() : null;
}
