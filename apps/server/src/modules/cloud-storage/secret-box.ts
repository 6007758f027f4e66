import crypto from 'node:crypto';

// Secrets kept at rest (the bucket's secret key), sealed with AES-256-GCM under a key derived
// from STORAGE_SECRET_KEY by HKDF-SHA-256. A sealed value is `v1:` and base64 of IV (12 bytes),
// tag (16 bytes) and ciphertext; opening it with another key fails (the tag does not match).

const INFO = 'cloud-classroom storage secret v1';

function keyOf(secret: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), INFO, 32));
}

export function seal(secret: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/** The plain text, or undefined when `sealed` was not sealed with this secret (or is damaged). */
export function open(secret: string, sealed: string): string | undefined {
  if (!sealed.startsWith('v1:')) return undefined;
  const bytes = Buffer.from(sealed.slice(3), 'base64');
  if (bytes.length < 28) return undefined;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(secret), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
