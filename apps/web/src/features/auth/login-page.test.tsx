import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/use-locale-text';
import { LoginPage } from './login-page';
import { PASSWORD_CHANGED_STATE } from './sign-out-after-password-change';
import { useUserStore } from './user-store';

// The login page must stay free of antd (its bundle budget): importing it here would flag so.
const loaded = vi.hoisted(() => ({ antd: false, icons: false }));
vi.mock('antd', () => {
  loaded.antd = true;
  return {};
});
vi.mock('@ant-design/icons', () => {
  loaded.icons = true;
  return {};
});

type Answer = { status: number; body: unknown };

let captchaEnabled = true;
let captchaCalls = 0;
let loginAnswer: Answer = { status: 200, body: {} };
let loginBodies: unknown[] = [];

const adminLogin: Answer = {
  status: 200,
  body: { token: 'Bearer ok', user: { user: { id: 1, username: 'admin', nickName: 'Admin', avatarName: null }, roles: ['admin'], dataScopes: [] } },
};

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/auth/code') {
        captchaCalls += 1;
        return Response.json({ img: `data:image/png;base64,captcha${captchaCalls}`, uuid: `uuid-${captchaCalls}`, enabled: captchaEnabled });
      }
      if (url === '/auth/login') {
        loginBodies.push(JSON.parse(String(init.body)));
        return Response.json(loginAnswer.body, { status: loginAnswer.status });
      }
      return new Response(null, { status: 404 });
    }),
  );
}

function Elsewhere() {
  const { pathname, search } = useLocation();
  return <p>now at {`${pathname}${search}`}</p>;
}

function renderLogin(path: string | { pathname: string; state: unknown } = '/login') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="*" element={<Elsewhere />} />
      </Routes>
    </MemoryRouter>,
  );
}

async function fillIn(values: { username?: string; password?: string; code?: string }) {
  const user = userEvent.setup();
  if (values.username) await user.type(screen.getByRole('textbox', { name: 'user name' }), values.username);
  if (values.password) await user.type(screen.getByLabelText('password'), values.password);
  if (values.code) await user.type(screen.getByRole('textbox', { name: 'captcha answer' }), values.code);
  await user.click(screen.getByRole('button', { name: 'log in' }));
}

describe('LoginPage', () => {
  beforeEach(() => {
    setLocale('en-US', false);
    captchaEnabled = true;
    captchaCalls = 0;
    loginBodies = [];
    loginAnswer = adminLogin;
    stubServer();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
    Cookies.remove('point');
  });

  it('renders the form without loading antd', async () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: 'Cloud Classroom' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'user name' })).toBeTruthy();
    expect(screen.getByLabelText('password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('checkbox', { name: 'remember me' })).toBeTruthy();
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    expect(loaded).toEqual({ antd: false, icons: false });
  });

  it('asks for every empty field and sends nothing', async () => {
    renderLogin();
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    await fillIn({});
    expect(screen.getByText('please enter your user name')).toBeTruthy();
    expect(screen.getByText('please enter your password')).toBeTruthy();
    expect(screen.getByText('please enter the captcha answer')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'user name' }).getAttribute('aria-invalid')).toBe('true');
    expect(loginBodies).toEqual([]);
  });

  it('asks only for what is missing', async () => {
    renderLogin();
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    await fillIn({ username: 'admin', code: '7' });
    expect(screen.queryByText('please enter your user name')).toBeNull();
    expect(screen.getByText('please enter your password')).toBeTruthy();
    expect(screen.queryByText('please enter the captcha answer')).toBeNull();
    expect(loginBodies).toEqual([]);
  });

  it('hides the captcha when auth/code says it is off, and logs in without it', async () => {
    captchaEnabled = false;
    renderLogin();
    await waitFor(() => expect(captchaCalls).toBe(1));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'captcha answer' })).toBeNull());
    expect(screen.queryByRole('img')).toBeNull();
    await fillIn({ username: 'admin', password: '123456' });
    expect(screen.queryByText('please enter the captcha answer')).toBeNull();
    await screen.findByText('now at /dashboard');
    expect(loginBodies).toEqual([{ username: 'admin', password: '123456', code: '', uuid: 'uuid-1' }]);
  });

  it('shows the captcha image when it is on; a click on it fetches a new one', async () => {
    renderLogin();
    const image = await screen.findByRole('img', { name: 'captcha: click for a new one' });
    expect(image.getAttribute('src')).toBe('data:image/png;base64,captcha1');
    await userEvent.setup().click(screen.getByRole('button', { name: 'captcha: click for a new one' }));
    await waitFor(() => expect(captchaCalls).toBe(2));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'captcha: click for a new one' }).getAttribute('src')).toBe('data:image/png;base64,captcha2'),
    );
  });

  it("shows the server's message after a failed login, and fetches a new captcha", async () => {
    loginAnswer = { status: 400, body: { status: 400, message: 'wrong captcha answer' } };
    renderLogin();
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    await fillIn({ username: 'admin', password: 'bad', code: '5' });
    expect((await screen.findByRole('alert')).textContent).toBe('wrong captcha answer');
    expect(loginBodies).toEqual([{ username: 'admin', password: 'bad', code: '5', uuid: 'uuid-1' }]);
    await waitFor(() => expect(captchaCalls).toBe(2));
    // The used answer is cleared, the button usable again, and the session untouched.
    expect((screen.getByRole('textbox', { name: 'captcha answer' }) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'log in' }).hasAttribute('disabled')).toBe(false);
    expect(useUserStore.getState().token).toBeUndefined();
    expect(screen.getByRole('heading', { name: 'Cloud Classroom' })).toBeTruthy();
  });

  it.each([
    ['en-US', 'code: the captcha answer is wrong', 'the captcha answer is wrong'],
    ['zh-CN', 'code: the captcha answer is wrong', '验证码错误'],
    ['zh-CN', 'code: the captcha has expired, get a new one', '验证码已过期，请重新输入'],
    ['zh-CN', 'username or password is wrong', '用户名或密码错误'],
    ['en-US', 'password: some rule the page does not know', 'some rule the page does not know'],
  ] as const)("in %s shows %j as the sentence %j, in the page's language, without the field name", async (locale, message, shown) => {
    loginAnswer = { status: 400, body: { status: 400, message } };
    renderLogin();
    await screen.findByRole('img');
    await fillIn({ username: 'admin', password: 'bad', code: '5' });
    // Switched after the answer came: what is shown follows the page's language.
    await act(() => setLocale(locale, false));
    await waitFor(() => expect(screen.getByText(shown)).toBeTruthy());
    expect(screen.queryByText(message)).toBeNull();
    await setLocale('en-US', false);
  });

  it('a second try sends the new captcha uuid', async () => {
    loginAnswer = { status: 400, body: { status: 400, message: 'wrong captcha answer' } };
    renderLogin();
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    await fillIn({ username: 'admin', password: 'bad', code: '5' });
    await waitFor(() => expect(screen.getByRole('img', { name: 'captcha: click for a new one' }).getAttribute('src')).toContain('captcha2'));
    loginAnswer = adminLogin;
    await fillIn({ code: '6' });
    await screen.findByText('now at /dashboard');
    expect(loginBodies[1]).toMatchObject({ code: '6', uuid: 'uuid-2' });
  });

  it('goes to the redirect parameter after logging in', async () => {
    renderLogin(`/login?redirect=${encodeURIComponent('/system/user?page=2')}`);
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    await fillIn({ username: 'admin', password: '123456', code: '1' });
    expect(await screen.findByText('now at /system/user?page=2')).toBeTruthy();
    expect(useUserStore.getState().token).toBe('Bearer ok');
  });

  it.each(['//evil.example/x', 'https://evil.example', '/\\evil.example'])('refuses the off-site redirect %s and goes to the dashboard', async (target) => {
    renderLogin(`/login?redirect=${encodeURIComponent(target)}`);
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    await fillIn({ username: 'admin', password: '123456', code: '1' });
    expect(await screen.findByText('now at /dashboard')).toBeTruthy();
  });

  it('sends a user without back-office roles home to /', async () => {
    loginAnswer = { status: 200, body: { token: 'Bearer l', user: { user: { id: 9, username: 'learner' }, roles: [], dataScopes: [] } } };
    renderLogin();
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    await fillIn({ username: 'learner', password: '123456', code: '1' });
    expect(await screen.findByText('now at /')).toBeTruthy();
  });

  it("says the session expired when cookie point=401 is set, then removes the cookie", async () => {
    Cookies.set('point', '401');
    renderLogin();
    expect(screen.getByRole('status').textContent).toBe('your session has expired, please log in again');
    await waitFor(() => expect(Cookies.get('point')).toBeUndefined());
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    // Still shown for this visit; the next one will not show it.
    expect(screen.getByRole('status')).toBeTruthy();
    cleanup();
    renderLogin();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the password was changed when a password change signed the person out', async () => {
    renderLogin({ pathname: '/login', state: PASSWORD_CHANGED_STATE });
    expect(screen.getByRole('status').textContent).toBe('Your password was changed: sign in again with the new one');
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
  });

  it('shows no session notice without the cookie', async () => {
    renderLogin();
    await screen.findByRole('img', { name: 'captcha: click for a new one' });
    expect(screen.queryByRole('status')).toBeNull();
  });
});
