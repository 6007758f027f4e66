import type { AuthInfo, Captcha, LoginBody, LoginResponse } from '@cloud-classroom/shared/auth';
import { http } from '../../lib/http-client';

export const getCaptcha = () => http.get<Captcha>('auth/code');

/** The form shows a wrong password or captcha itself, under the field, instead of a notification. */
export const postLogin = (body: LoginBody) => http.post<LoginResponse>('auth/login', body, { silent: true });

export const getInfo = () => http.get<AuthInfo>('auth/info');

export const deleteLogout = () => http.delete('auth/logout', undefined, { silent: true });
