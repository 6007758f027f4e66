import crypto from 'node:crypto';
import { AVATAR_MAX_BYTES } from '@cloud-classroom/shared/users';
import type { FileType } from '../../files/file-type.js';

/** The image types an avatar may be (told by `detectFileType`), with the extension and content type each is stored and served with. */
const AVATAR_TYPES: Partial<Record<FileType, { extension: string; contentType: string }>> = {
  png: { extension: 'png', contentType: 'image/png' },
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  gif: { extension: 'gif', contentType: 'image/gif' },
  webp: { extension: 'webp', contentType: 'image/webp' },
};

/** How `POST api/users/updateAvatar` reads its upload. */
export const AVATAR_UPLOAD = {
  field: 'avatar',
  maxBytes: AVATAR_MAX_BYTES,
  accepts: { types: Object.keys(AVATAR_TYPES) as FileType[], refusal: 'must be a PNG, JPEG, GIF or WebP image' },
};

/** Avatars are stored under this folder of the file store, as `avatar/<name>`. */
export const AVATAR_FOLDER = 'avatar';

// Only names this module generates: 128 random bits and a known extension, so no path can be smuggled in.
const AVATAR_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

export const avatarKey = (name: string) => `${AVATAR_FOLDER}/${name}`;

/** A new unguessable name for an image of this type, undefined when it is no avatar type. */
export function newAvatarName(type: FileType): string | undefined {
  const avatarType = AVATAR_TYPES[type];
  return avatarType && `${crypto.randomBytes(16).toString('hex')}.${avatarType.extension}`;
}

/** The content type to serve the avatar of that name with, if the name is one of ours. */
export function avatarContentType(name: string): string | undefined {
  const extension = AVATAR_NAME.exec(name)?.[1];
  return Object.values(AVATAR_TYPES).find((type) => type.extension === extension)?.contentType;
}

/** The avatar name a store key stands for, if it is one. */
export function avatarNameOf(key: string): string | undefined {
  const name = key.slice(AVATAR_FOLDER.length + 1);
  return key.startsWith(`${AVATAR_FOLDER}/`) && AVATAR_NAME.test(name) ? name : undefined;
}
