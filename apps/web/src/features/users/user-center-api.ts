import type { UpdatePassword, UserCenter } from '@cloud-classroom/shared/users';
import { http, type CallOptions } from '../../lib/http-client';

/** Changes the signed-in user's own nick name, gender, phone and e-mail (204). */
export const putUserCenter = (body: UserCenter, options?: CallOptions) => http.put('api/users/center', body, options);

/** 200 with no body; the server then ends the user's other sessions. */
export const postUpdatePassword = (body: UpdatePassword, options?: CallOptions) => http.post('api/users/updatePass', body, options);

/** The server wants the image as the multipart field `avatar`; it answers the new file name. */
export function postAvatar(image: Blob, fileName: string, options?: CallOptions) {
  const form = new FormData();
  form.append('avatar', image, fileName);
  return http.post<{ avatar: string }>('api/users/updateAvatar', form, options);
}
