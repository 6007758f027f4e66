import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The image kinds an avatar may be, told apart by their first bytes, never by the name the client sent. */
const IMAGE_KINDS = [
  { extension: 'png', contentType: 'image/png', matches: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { extension: 'jpg', contentType: 'image/jpeg', matches: (b: Buffer) => b.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) },
  { extension: 'gif', contentType: 'image/gif', matches: (b: Buffer) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  {
    extension: 'webp',
    contentType: 'image/webp',
    matches: (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
] as const;

export type ImageKind = (typeof IMAGE_KINDS)[number];

export function imageKindOf(bytes: Buffer): ImageKind | undefined {
  return IMAGE_KINDS.find((kind) => kind.matches(bytes));
}

// Only names this module generates: 128 random bits and a known extension, so no path can be smuggled in.
const AVATAR_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

const avatarDir = (dataDir: string) => path.join(dataDir, 'avatar');

/** Stores the image under a new unguessable name and returns that name. */
export async function saveAvatar(dataDir: string, bytes: Buffer, kind: ImageKind): Promise<string> {
  const name = `${crypto.randomBytes(16).toString('hex')}.${kind.extension}`;
  await fs.mkdir(avatarDir(dataDir), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(avatarDir(dataDir), name), bytes, { flag: 'wx', mode: 0o600 });
  return name;
}

export async function removeAvatar(dataDir: string, name: string | null): Promise<void> {
  if (name === null || !AVATAR_NAME.test(name)) return;
  await fs.rm(path.join(avatarDir(dataDir), name), { force: true });
}

/** The stored image of that name, if the name is one of ours and the file exists. */
export async function findAvatar(dataDir: string, name: string): Promise<{ file: string; contentType: string } | undefined> {
  const match = AVATAR_NAME.exec(name);
  const kind = IMAGE_KINDS.find((candidate) => candidate.extension === match?.[1]);
  if (kind === undefined) return undefined;
  const file = path.join(avatarDir(dataDir), name);
  const stat = await fs.stat(file).catch(() => undefined);
  return stat?.isFile() ? { file, contentType: kind.contentType } : undefined;
}
