import { pipeline, Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { Busboy, type BusboyFileStream, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, invalidInput, tooLarge } from '../domain-error.js';
import { byteLimit } from './byte-limit.js';
import { detectFileType, FILE_HEAD_BYTES, type FileType } from './file-type.js';
import type { Upload } from './upload.js';

export type UploadOptions = {
  /** The multipart field that carries the file; every refusal's message starts with it. */
  field: string;
  maxBytes: number;
  /** The types taken (all when absent), and what to say to the rest: `avatar: <refusal>`. */
  accepts?: { types: readonly FileType[]; refusal: string };
};

/**
 * After a refused upload the rest of its body is read and thrown away, so that the keep-alive
 * connection answers its next request (a browser also shows the answer only once it has sent the
 * whole body). Beyond this much, the connection is closed instead: nobody uploads that much by mistake.
 */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** The most a text field of an upload may hold. */
const FIELD_MAX_BYTES = 64 * 1024;

/** Requests whose multipart body is left for `withUpload` to read. */
const unread = new WeakMap<FastifyRequest, IncomingMessage>();

/**
 * Lets the routes of one plugin take multipart uploads through `withUpload`. Registered per
 * plugin rather than app-wide: other routes refuse multipart bodies (415).
 */
export function acceptUploads(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    unread.set(request, payload);
    done(null, undefined);
  });
}

// Busboy fails on a malformed body with plain Errors, told apart only by their message.
const TRUNCATED = 'body: multipart data ends before its closing boundary';
const CUT_OFF = 'body: the connection closed before the upload was complete';
const MALFORMED: [RegExp, string][] = [
  [/^Multipart: Boundary not found$/, 'body: multipart/form-data needs a boundary in its Content-Type'],
  [/^The needle cannot have a length bigger than \d+\.$/, 'body: the multipart boundary is too long'],
  [/^Unexpected end of multipart data$/, TRUNCATED],
  [/^\w+ terminated early due to unexpected end of multipart data$/, TRUNCATED],
];

function asRefusal(error: unknown): unknown {
  if (error instanceof DomainError || !(error instanceof Error)) return error;
  const message = MALFORMED.find(([pattern]) => pattern.test(error.message))?.[1];
  return message === undefined ? error : invalidInput(message);
}

type FilePart = {
  field: string;
  stream: BusboyFileStream;
  fileName: string;
  mimeType: string;
  /** Busboy ends a part cut off by the end of the body after only emitting this error on it. */
  failure: Error | undefined;
};

/**
 * Reads the one file of a multipart request (field `options.field`), tells its type from the
 * first bytes, and hands it to `use` as a stream limited to `options.maxBytes`; `use` stores it
 * (`FileStore.put`). Whatever is refused, and whenever — before the file, on its first bytes, past
 * the limit, or by `use` — the rest of the body is drained, so the connection stays usable.
 */
export async function withUpload<T>(request: FastifyRequest, options: UploadOptions, use: (upload: Upload) => Promise<T>): Promise<T> {
  const { field, maxBytes } = options;
  const body = unread.get(request);
  if (body === undefined) throw invalidInput(`${field}: expected a multipart/form-data upload`);
  unread.delete(request);
  let parser: BusboyInstance | undefined;
  try {
    const multipart = Busboy({ headers: request.headers as BusboyHeaders, limits: { files: 1, fields: 20, parts: 40, fieldSize: FIELD_MAX_BYTES } });
    parser = multipart;
    const ended = settled(multipart);
    // The text fields sent before the file (a client puts them first), for `use` to check before it stores a byte.
    const fields: Record<string, string> = {};
    multipart.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) multipart.destroy(invalidInput(`${name}: is longer than ${formatFileSize(FIELD_MAX_BYTES)}`));
      else fields[name] = value;
    });
    const part = firstFile(multipart, ended);
    // A client gone mid-body ends nothing by itself: busboy would wait for the rest for ever,
    // and the file being stored with it.
    body.once('close', () => {
      if (body.complete) return;
      const error = invalidInput(CUT_OFF);
      multipart.destroy(error);
      void part.then((file) => file?.stream.destroy(error), () => undefined);
    });
    body.pipe(multipart);
    const file = await part;
    if (file === undefined || file.field !== field) throw invalidInput(`${field}: is required`);
    const { head, ended: fileEnded } = await readHead(file.stream);
    const type = detectFileType(head);
    if (options.accepts !== undefined && !options.accepts.types.includes(type)) throw invalidInput(`${field}: ${options.accepts.refusal}`);
    const content = pipeline(
      Readable.from(rest(head, file, fileEnded), { objectMode: false }),
      byteLimit(maxBytes, () => tooLarge(`${field}: is larger than ${formatFileSize(maxBytes)}`)),
      // The error travels on with `content`, to whoever reads it.
      () => undefined,
    );
    const result = await use({ field, fileName: file.fileName, mimeType: file.mimeType, type, empty: head.length === 0, content, fields: { ...fields } });
    // Whatever `use` left unread, and the parts after the file, up to the closing boundary. The
    // file is whole and stored by now: a body that breaks off after it does not undo that.
    file.stream.resume();
    await ended.catch(() => drain(body, multipart));
    return result;
  } catch (error) {
    drain(body, parser);
    throw asRefusal(error);
  }
}

function settled(parser: BusboyInstance): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    parser.once('finish', resolve);
    parser.once('error', reject);
  });
  // Awaited on success; on failure the error reaches the caller through the file or `firstFile`.
  done.catch(() => undefined);
  return done;
}

/** The first file part, or undefined when the body has none; listening before the body flows in. */
function firstFile(parser: BusboyInstance, ended: Promise<void>): Promise<FilePart | undefined> {
  return new Promise<FilePart | undefined>((resolve, reject) => {
    parser.once('file', (name: string, stream: BusboyFileStream, fileName: string, _encoding: string, mimeType: string) => {
      const part: FilePart = { field: name, stream, fileName, mimeType, failure: undefined };
      // Kept for `rest`, which may start reading after it was emitted; and never an unhandled 'error' event.
      stream.on('error', (error: Error) => (part.failure ??= error));
      resolve(part);
    });
    ended.then(() => resolve(undefined), reject);
  });
}

/** The file's first bytes (at least FILE_HEAD_BYTES unless the file is shorter), the stream left paused after them. */
function readHead(stream: Readable): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (ended: boolean) => {
      stream.off('data', onData).off('end', onEnd).off('error', reject);
      if (!ended) stream.pause();
      resolve({ head: Buffer.concat(chunks), ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= FILE_HEAD_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    stream.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

/** The whole file: its head, then the rest of the part; failing when the part was cut off. */
async function* rest(head: Buffer, file: FilePart, ended: boolean): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  if (!ended) for await (const chunk of file.stream) yield chunk as Buffer;
  if (file.failure !== undefined) throw file.failure;
}

/** Stops parsing and throws the rest of the body away (see DRAIN_LIMIT_BYTES). */
function drain(body: IncomingMessage, parser: BusboyInstance | undefined): void {
  if (parser !== undefined) {
    body.unpipe(parser);
    parser.on('error', () => undefined);
  }
  let drained = 0;
  body.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) body.destroy();
  });
  body.resume();
}
