import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * A real S3-compatible server for tests (`s3rver`, on 127.0.0.1, a free port, files in a fresh
 * temporary folder), with one bucket. Its limits: it knows one access key (S3RVER) and
 * does not check the secret a request was signed with (so a wrong secret key goes unnoticed here);
 * it does not understand aws-chunked bodies (the SDK's default checksums, turned off here as in
 * the service); no versioning, no bucket policies, no multipart copy.
 */
export type S3TestServer = {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  client: S3Client;
  /** The bucket gone from the network (its port closed, connections refused), its objects kept. */
  stop(): Promise<void>;
  /** Back on the same port with the same objects, as a bucket's host after an outage. */
  restart(): Promise<void>;
  close(): Promise<void>;
};

export async function startS3TestServer(bucket = 'classroom-test'): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const serverOn = (port: number) => new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  let server: S3rver | undefined = serverOn(0);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  const stop = async () => {
    const running = server;
    server = undefined;
    await running?.close();
  };
  return {
    endpoint,
    bucket,
    accessKey: 'S3RVER',
    // s3rver does not check the secret of a signature (see above): any stands in for a real one.
    secretKey: 'not-the-access-key-secret',
    client,
    stop,
    async restart() {
      if (server !== undefined) return;
      const restarted = serverOn(port);
      await restarted.run();
      server = restarted;
    },
    async close() {
      client.destroy();
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
