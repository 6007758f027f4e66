import type { UpdatePassword, UserCenter } from '@cloud-classroom/shared/users';
import { http } from '../../lib/http-client';

/** Changes the signed-in user's own nick name, gender, phone and e-mail (204). */
export const putUserCenter = (body: UserCenter) => http.put('api/users/center', body);

/** 200 with no body; the server then ends the user's other sessions. */
export const postUpdatePassword = (body: UpdatePassword) => http.post('api/users/updatePass', body);

/** The server wants the image as the multipart field `avatar`; it answers the new file name. */
export function postAvatar(image: Blob, fileName: string) {
  const form = new FormData();
  form.append('avatar', image, fileName);
  return http.post<{ avatar: string }>('api/users/updateAvatar', form);
}

/** The caller's own audit entries; every signed-in user may read them. */
export const MY_LOGS_PATH = 'api/logs/user';
