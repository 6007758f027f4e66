import { AVATAR_MAX_BYTES, type User } from '@cloud-classroom/shared/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEventLib, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { App, ConfigProvider } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import { configureHttpClient } from '../../lib/http-client';
import { useUserStore } from '../auth/user-store';
import UserCenterPage from './user-center-page';

await vi.hoisted(async () => {
  const { initI18n } = await import('../../lib/i18n');
  await initI18n('en-US');
});

// antd forms re-render a lot and jsdom is slow at it: give answers and messages time to show.
configure({ asyncUtilTimeout: 5000 });

const me: User = {
  id: 7,
  username: 'teacher',
  nickName: 'Ms Zhang',
  gender: '女',
  phone: '13800000001',
  email: 'teacher@example.com',
  avatarName: null,
  enabled: true,
  pwdResetTime: null,
  dept: { id: 4, name: 'Lecturers' },
  roles: [{ id: 2, name: 'teacher', level: 2, dataScope: '自定义' }],
  createBy: 'admin',
  updateBy: null,
  createTime: '2026-01-02 08:30:00',
  updateTime: '2026-01-02 08:30:00',
};

type Call = { method: string; path: string; search: URLSearchParams; body: unknown };
let calls: Call[] = [];
let infoUser: User = me;

const json = (value: unknown, status = 200) =>
  new Response(value === undefined ? null : JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

const myLogs = {
  content: [
    {
      id: 31,
      username: 'teacher',
      description: '修改个人资料',
      method: 'PUT /api/users/center',
      params: null,
      logType: 'INFO',
      status: 204,
      requestIp: '10.1.2.3',
      browser: 'Firefox 131',
      time: 18,
      createTime: '2026-01-03 10:00:00',
    },
  ],
  totalElements: 1,
};

async function respond(method: string, url: URL, body: unknown): Promise<Response> {
  const route = `${method} ${url.pathname}`;
  switch (route) {
    case 'GET /auth/info':
      return json({ user: infoUser, roles: ['admin'], dataScopes: [] });
    case 'PUT /api/users/center':
      // A number the shared rule lets through and the server still refuses.
      return (body as { phone: string | null }).phone === '13800000009'
        ? json({ status: 400, message: 'phone: please enter a correct phone number', timestamp: 0 }, 400)
        : json(undefined, 204);
    case 'POST /api/users/updatePass':
      return (body as { oldPass: string }).oldPass === 'wrong-password'
        ? json({ status: 400, message: 'oldPass: the current password is wrong', timestamp: 0 }, 400)
        : json(undefined);
    case 'DELETE /auth/logout':
      return json(undefined);
    case 'POST /api/users/updateAvatar':
      return json({ avatar: '0123456789abcdef0123456789abcdef.png' });
    case 'GET /api/logs/user':
      return json(myLogs);
    default:
      throw new Error(`unexpected ${route}`);
  }
}

function renderAt(path = '/user/center') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      {/* No animations: jsdom never ends a CSS transition, so motion only adds waiting. */}
      <ConfigProvider theme={{ token: { motion: false } }}>
      <App>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/user/center" element={<UserCenterPage />} />
            <Route path="/login" element={<h1>login page</h1>} />
          </Routes>
        </MemoryRouter>
      </App>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}

/** Replaces a field's text in one change event: typing key by key through antd's forms is slow in jsdom. */
function setText(label: string, text: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
}

// jsdom's getComputedStyle walks every antd style rule; checking pointer-events on each click costs seconds.
const userEvent = {
  setup: (options: Parameters<typeof userEventLib.setup>[0] = {}) =>
    userEventLib.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never, ...options }),
};

const callsTo = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);

beforeEach(() => {
  calls = [];
  infoUser = me;
  useUserStore.setState({ token: 'Bearer test', user: me, roles: ['admin'] });
  stubBrowser();
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = init.body instanceof FormData ? init.body : typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, search: url.searchParams, body });
    return respond(method, url, body);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Whole antd forms in jsdom take seconds per test on a busy machine; the default 5 s is too tight.
describe('UserCenterPage', { timeout: 30_000 }, () => {
  it("shows the person's own account on the left", () => {
    renderAt();
    expect(screen.getByRole('heading', { name: 'Ms Zhang' })).toBeTruthy();
    for (const text of ['teacher', 'Lecturers', '13800000001', 'teacher@example.com', '2026-01-02 08:30:00']) {
      expect(screen.getAllByText(text).length).toBeGreaterThan(0);
    }
  });

  describe('profile', () => {
    it('refuses a too-short nick name and a malformed phone and e-mail before sending', async () => {
      const user = userEvent.setup();
      renderAt();
      setText('Nick name', 'Z');
      setText('Phone', '12345');
      setText('E-mail', 'not-an-address');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Must be 2 to 20 characters')).toBeTruthy();
      expect(screen.getByText('please enter a correct phone number')).toBeTruthy();
      expect(screen.getByText('please enter a correct e-mail address')).toBeTruthy();
      expect(callsTo('PUT', '/api/users/center')).toHaveLength(0);
    });

    it('saves the trimmed profile, blanks as null, then reloads the session user', async () => {
      const user = userEvent.setup();
      renderAt();
      setText('Nick name', '  Zhang Wei  ');
      await user.click(screen.getByRole('radio', { name: 'Male' }));
      setText('E-mail', '');
      infoUser = { ...me, nickName: 'Zhang Wei', gender: '男', email: null };
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Profile saved')).toBeTruthy();
      expect(callsTo('PUT', '/api/users/center')[0]?.body).toEqual({
        nickName: 'Zhang Wei',
        gender: '男',
        phone: '13800000001',
        email: null,
      });
      await waitFor(() => expect(useUserStore.getState().user?.nickName).toBe('Zhang Wei'));
      expect(screen.getByRole('heading', { name: 'Zhang Wei' })).toBeTruthy();
    });

    it('shows the server refusing the phone under the phone field, not as a notification', async () => {
      const notified = vi.fn<(message: string) => void>();
      configureHttpClient({ notifyError: notified });
      try {
        const user = userEvent.setup();
        renderAt();
        setText('Phone', '13800000009');
        await user.click(screen.getByRole('button', { name: 'Save' }));
        const phoneItem = screen.getByLabelText('Phone').closest<HTMLElement>('.ant-form-item')!;
        expect(await within(phoneItem).findByText('please enter a correct phone number')).toBeTruthy();
        expect(callsTo('PUT', '/api/users/center')).toHaveLength(1);
        expect(notified).not.toHaveBeenCalled();
        expect(screen.queryByText('Profile saved')).toBeNull();
      } finally {
        configureHttpClient({ notifyError: () => {} });
      }
    });
  });

  describe('password', () => {
    async function fill(oldPass: string, newPass: string, confirmPass: string) {
      const user = userEvent.setup();
      renderAt('/user/center?tab=password');
      setText('Current password', oldPass);
      setText('New password', newPass);
      setText('Confirm password', confirmPass);
      await user.click(screen.getByRole('button', { name: 'Save' }));
    }

    it('refuses a short new password and a confirmation that differs', async () => {
      await fill('old-password', 'short', 'shorter');
      expect(await screen.findByText('At least 8 characters')).toBeTruthy();
      expect(screen.getByText('The two passwords do not match')).toBeTruthy();
      expect(callsTo('POST', '/api/users/updatePass')).toHaveLength(0);
    });

    it('refuses a new password equal to the current one', async () => {
      await fill('same-password', 'same-password', 'same-password');
      expect(await screen.findByText('The new password must differ from the current one')).toBeTruthy();
      expect(callsTo('POST', '/api/users/updatePass')).toHaveLength(0);
    });

    it('changes the password, ends the session and goes to the login page', async () => {
      await fill('old-password', 'a-new-password', 'a-new-password');
      expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
      expect(callsTo('POST', '/api/users/updatePass')[0]?.body).toEqual({ oldPass: 'old-password', newPass: 'a-new-password' });
      expect(callsTo('DELETE', '/auth/logout')).toHaveLength(1);
      expect(useUserStore.getState().token).toBeUndefined();
      expect(useUserStore.getState().user).toBeUndefined();
    });

    it('stays on the page, signed in, when the server refuses the current password', async () => {
      await fill('wrong-password', 'a-new-password', 'a-new-password');
      await waitFor(() => expect(callsTo('POST', '/api/users/updatePass')).toHaveLength(1));
      const oldPassItem = screen.getByLabelText('Current password').closest<HTMLElement>('.ant-form-item')!;
      expect(await within(oldPassItem).findByText('the current password is wrong')).toBeTruthy();
      expect(callsTo('DELETE', '/auth/logout')).toHaveLength(0);
      expect(useUserStore.getState().token).toBe('Bearer test');
      expect(screen.getByLabelText('Current password')).toBeTruthy();
    });
  });

  describe('avatar', () => {
    const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

    beforeEach(() => {
      URL.createObjectURL = vi.fn(() => 'blob:preview');
      URL.revokeObjectURL = vi.fn();
    });

    it('checks type and size here, before anything is sent', async () => {
      const user = userEvent.setup({ applyAccept: false });
      renderAt('/user/center?tab=avatar');
      await user.upload(fileInput(), new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
      expect(await screen.findByText('Please choose a PNG, JPEG, GIF or WebP image')).toBeTruthy();
      await user.upload(fileInput(), new File([new Uint8Array(AVATAR_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' }));
      expect(await screen.findByText('The image must be at most 2.00 MiB')).toBeTruthy();
      expect(screen.queryByRole('button', { name: /Upload avatar/ })).toBeNull();
      expect(callsTo('POST', '/api/users/updateAvatar')).toHaveLength(0);
    });

    it('previews and crops the picture, uploads the square as the field "avatar", then reloads the user', async () => {
      const drawImage = vi.fn();
      vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({ drawImage } as never);
      vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((done, type) => done(new Blob(['cropped'], { type })));
      const user = userEvent.setup();
      renderAt('/user/center?tab=avatar');
      await user.upload(fileInput(), new File(['png-bytes'], 'me.png', { type: 'image/png' }));

      // A landscape picture 480 × 240: the circle starts on its middle square.
      const picture = await screen.findByRole('img', { name: 'me.png' });
      Object.defineProperty(picture, 'naturalWidth', { value: 480 });
      Object.defineProperty(picture, 'naturalHeight', { value: 240 });
      fireEvent.load(picture);
      const area = screen.getByRole('group', { name: 'Avatar crop area' });
      area.focus();
      await user.keyboard('{ArrowRight}{ArrowRight}');

      infoUser = { ...me, avatarName: '0123456789abcdef0123456789abcdef.png' };
      await user.click(screen.getByRole('button', { name: /Upload avatar/ }));
      expect(await screen.findByText('Avatar updated')).toBeTruthy();
      // Moving the picture 20 px right shows 20 px more of its left side.
      expect(drawImage).toHaveBeenCalledWith(picture, 100, 0, 240, 240, 0, 0, 256, 256);
      const form = callsTo('POST', '/api/users/updateAvatar')[0]?.body as FormData;
      const sent = form.get('avatar') as File;
      expect(sent.name).toBe('avatar.png');
      // The canvas's square ('cropped', 7 bytes), not the original file ('png-bytes', 9).
      expect([sent.size, sent.type]).toEqual([7, 'image/png']);
      await waitFor(() => expect(useUserStore.getState().user?.avatarName).toBe('0123456789abcdef0123456789abcdef.png'));
    });
  });

  it('lists my own operations, newest first, described in my language, and searches them', async () => {
    const user = userEvent.setup();
    renderAt('/user/center?tab=logs');
    // Stored as 修改个人资料.
    const row = (await screen.findByText('Edit own profile')).closest('tr')!;
    expect(within(row).getByText('10.1.2.3')).toBeTruthy();
    expect(within(row).getByText('18 ms')).toBeTruthy();
    expect(callsTo('GET', '/api/logs/user')[0]?.search.getAll('sort')).toEqual(['createTime,desc']);

    setText('Search description, method, IP', 'profile');
    await user.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(callsTo('GET', '/api/logs/user').at(-1)?.search.get('blurry')).toBe('profile'));
  });
});
