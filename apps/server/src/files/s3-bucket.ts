import type * as AwsS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';

export type S3Sdk = typeof AwsS3;
let sdk: Promise<S3Sdk> | undefined;
let loadedSdk: S3Sdk | undefined;

/**
 * The AWS SDK, loaded on first use (`LAZY` in the server's bundle): a server on local storage
 * whose cloud storage page is unused never loads it, which took a tenth of its cold start.
 */
export function loadS3Sdk(): Promise<S3Sdk> {
  sdk ??= import('@aws-sdk/client-s3').then((loaded) => (loadedSdk = loaded));
  return sdk;
}

/** How to reach one S3-compatible bucket: the cloud storage page's settings, or `STORAGE=s3`'s. */
export type S3BucketSettings = {
  /** `https://s3.example.com`; absent: AWS S3 itself, by region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` (MinIO and most self-hosted stores) rather than `https://bucket.host/key`. */
  pathStyle: boolean;
  /** How long the bucket may keep a request waiting without a byte; `S3_SILENCE_MS` unless given (tests shorten it). */
  silenceMs?: number;
};

/**
 * A bucket silent this long (no connection, or no byte of an answer) counts as unreachable. The
 * SDK would wait for ever: a host that takes connections and never answers held every upload and
 * download open. Counted while idle only, so a large transfer that keeps moving is never cut.
 */
export const S3_SILENCE_MS = 15_000;

/** The one way the server makes an S3 client, so every bucket it talks to is spoken to alike. */
export async function createS3Client(settings: S3BucketSettings): Promise<S3Client> {
  const { S3Client } = await loadS3Sdk();
  return new S3Client({
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    region: settings.region,
    forcePathStyle: settings.pathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    maxAttempts: 2,
    requestHandler: { connectionTimeout: settings.silenceMs ?? S3_SILENCE_MS, socketTimeout: settings.silenceMs ?? S3_SILENCE_MS },
    // Checksums only where S3 demands them: the SDK's default (a CRC32 trailer in an aws-chunked
    // body) is not understood by many S3-compatible stores, which then keep the chunk framing.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** What the bucket said, in words for staff and operators: the S3 error's code and message. */
export function describeS3Failure(error: unknown): string {
  // Before the SDK is loaded nothing can have come from a bucket's answer.
  if (loadedSdk !== undefined && error instanceof loadedSdk.S3ServiceException) {
    // An answer without a body (HEAD) leaves the SDK only the status to go on.
    const detail = error.message === 'UnknownError' ? `HTTP ${error.$metadata.httpStatusCode}` : error.message;
    return `the bucket refused: ${error.name}${detail && detail !== error.name ? ` (${detail})` : ''}`;
  }
  return `the bucket could not be reached: ${unreachableReason(error)}`;
}

function unreachableReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The SDK's own words name its HTTP handler and its settings, not what happened.
  if (error.name === 'TimeoutError') return 'it did not answer in time';
  // Every address of a name refused: Node's AggregateError has no message of its own.
  const first = error instanceof AggregateError ? (error.errors as unknown[]).find((inner) => inner instanceof Error) : undefined;
  const code = (error as { code?: unknown }).code;
  return error.message || first?.message || (typeof code === 'string' ? code : error.name);
}

/** Whether S3 answered that the object (or bucket) is not there. */
export function isS3NotFound(error: unknown): boolean {
  return loadedSdk !== undefined && error instanceof loadedSdk.S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

/** Whether the bucket answers to these settings (HeadBucket): undefined when it does, else what went wrong. */
export async function checkS3Bucket(settings: S3BucketSettings): Promise<string | undefined> {
  const client = await createS3Client(settings);
  const { HeadBucketCommand } = await loadS3Sdk();
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
    return undefined;
  } catch (error) {
    return describeS3Failure(error);
  } finally {
    client.destroy();
  }
}
