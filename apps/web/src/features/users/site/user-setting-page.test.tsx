import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { learner, renderAt, signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { UserSettingPage } from './user-setting-page';

describe('my settings', () => {
  let routes: ReturnType<typeof stubRoutes>;
  let centerAnswer: () => unknown;
  let passAnswer: () => unknown;

  const profile = () => screen.getByRole('region', { name: 'Profile' });
  const password = () => screen.getByRole('region', { name: 'Password' });

  beforeEach(() => {
    setLocale('en-US', false);
    signIn();
    centerAnswer = () => undefined;
    passAnswer = () => undefined;
    routes = stubRoutes({
      'PUT api/users/center': () => centerAnswer(),
      'POST api/users/updatePass': () => passAnswer(),
      'POST api/users/updateAvatar': () => ({ avatar: 'new.png' }),
      'GET auth/info': () => ({ user: { ...learner, nickName: '李小明' }, roles: ['ROLE_SYSTEM_DEFAULT'], dataScopes: [] }),
      'DELETE auth/logout': () => undefined,
    });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it('saves the profile, blanks as null, after checking it with the shared validators', async () => {
    renderAt(<UserSettingPage />, '/user-setting');
    await waitFor(() => expect(document.title).toBe('Personal settings - Cloud Classroom'));
    const form = profile();
    expect(within(form).getByLabelText('User name')).toHaveProperty('disabled', true);
    expect(within(form).getByRole('radio', { name: 'Male' })).toHaveProperty('checked', true);
    fireEvent.change(within(form).getByLabelText('Phone'), { target: { value: '123' } });
    fireEvent.change(within(form).getByLabelText('Nick name'), { target: { value: 'x' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('please enter a correct phone number')).toBeTruthy();
    expect(within(form).getByText('Enter 2 to 20 characters')).toBeTruthy();
    expect(within(form).getByLabelText('Phone').getAttribute('aria-invalid')).toBe('true');
    expect(routes.callsTo('PUT api/users/center')).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Phone'), { target: { value: '' } });
    fireEvent.change(within(form).getByLabelText('Nick name'), { target: { value: ' 李小明 ' } });
    await userEvent.click(within(form).getByRole('radio', { name: 'Not set' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Saved.')).toBeTruthy();
    expect(routes.callsTo('PUT api/users/center').map((call) => call.body)).toEqual([
      { nickName: '李小明', gender: null, phone: null, email: 'liming@example.com' },
    ]);
    expect(useUserStore.getState().user?.nickName).toBe('李小明');
  });

  it("puts the server's refusal under its field, in the page's language", async () => {
    setLocale('zh-CN', false);
    centerAnswer = () => jsonResponse(400, { status: 400, message: 'email: please enter a correct e-mail address', timestamp: 0 });
    renderAt(<UserSettingPage />, '/user-setting');
    const form = screen.getByRole('region', { name: '基本资料' });
    await userEvent.click(within(form).getByRole('button', { name: '保存' }));
    const email = within(form).getByLabelText('邮箱');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe('请输入正确的邮箱地址');
  });

  it('changes the password after checking it, then signs out; a wrong current password shows under its field', async () => {
    renderAt(<UserSettingPage />, '/user-setting');
    const form = password();
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'old-pass-1' } });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(within(form).getByLabelText('Confirm the new password'), { target: { value: 'other' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getByText('Enter at least 8 characters')).toBeTruthy();
    expect(within(form).getByText('The two passwords differ.')).toBeTruthy();

    passAnswer = () => jsonResponse(400, { status: 400, message: 'oldPass: is wrong', timestamp: 0 });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'new-pass-12' } });
    fireEvent.change(within(form).getByLabelText('Confirm the new password'), { target: { value: 'new-pass-12' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('is wrong')).toBeTruthy();

    passAnswer = () => undefined;
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    // The login page is told why, to say so.
    expect(screen.getByTestId('location').dataset.state).toBe(JSON.stringify({ notice: 'passwordChanged' }));
    expect(routes.callsTo('POST api/users/updatePass').at(-1)?.body).toEqual({ oldPass: 'old-pass-1', newPass: 'new-pass-12' });
    expect(useUserStore.getState().token).toBeUndefined();
  });

  it('uploads an avatar of an accepted type and size as the field "avatar", and refuses others before sending', async () => {
    renderAt(<UserSettingPage />, '/user-setting');
    const region = screen.getByRole('region', { name: 'Avatar' });
    const input = within(region).getByLabelText('Choose an image');
    await userEvent.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(within(region).getByRole('alert').textContent).toBe('Choose a PNG, JPEG, GIF or WebP image.');
    await userEvent.upload(input, new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(within(region).getByRole('alert').textContent).toBe('The image is larger than 2 MB.');
    expect(routes.callsTo('POST api/users/updateAvatar')).toEqual([]);

    await userEvent.upload(input, new File(['png'], 'me.png', { type: 'image/png' }));
    expect(await within(region).findByText('Your avatar has been changed.')).toBeTruthy();
    const body = routes.callsTo('POST api/users/updateAvatar')[0]?.body;
    expect(body instanceof FormData && (body.get('avatar') as File).name).toBe('me.png');
  });
});
