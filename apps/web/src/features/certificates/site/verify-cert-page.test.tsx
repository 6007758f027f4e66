import type { CertificateVerification } from '@cloud-classroom/shared/certificates';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { VerifyCertPage } from './verify-cert-page';

const verification = (extra: Partial<CertificateVerification> = {}): CertificateVerification => ({
  status: 'valid',
  number: 'CC-2026-000003',
  holder: '李*',
  title: 'Fire safety',
  issuedAt: '2026-03-02 10:15:00',
  expiresAt: '2028-03-02 00:00:00',
  revokedAt: null,
  ...extra,
});

describe('the public check (/verify-cert)', () => {
  let answer: CertificateVerification | Response;
  let routes: ReturnType<typeof stubRoutes>;

  const open = (path = '/verify-cert?number=CC-2026-000003&code=K7QX2M9PLA4D') => renderAt(<VerifyCertPage />, path, '/verify-cert');
  const result = (name = 'Result') => screen.findByRole('region', { name });

  beforeEach(() => {
    setLocale('en-US', false);
    // Signed out: whoever scanned the QR code.
    useUserStore.getState().resetToken();
    answer = verification();
    routes = stubRoutes({ 'GET api/public/certificates/verify': () => answer });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("checks the address's number and code, and shows a valid certificate with the holder's name masked", async () => {
    open();
    const found = await result();
    expect(await within(found).findByText('This certificate is valid')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Verify a certificate - Cloud Classroom'));
    expect(within(found).getByText('李*')).toBeTruthy();
    expect(within(found).getByText('Part of the name is hidden to protect the holder.')).toBeTruthy();
    expect(within(found).getByText('Fire safety')).toBeTruthy();
    expect(within(found).getByText('2026-03-02')).toBeTruthy();
    // Valid through the day before the moment it expires.
    expect(within(found).getByText('2028-03-01')).toBeTruthy();
    const [call] = routes.callsTo('GET api/public/certificates/verify');
    expect([call?.params.get('number'), call?.params.get('code')]).toEqual(['CC-2026-000003', 'K7QX2M9PLA4D']);
    // The form says what was checked.
    expect((screen.getByRole('textbox', { name: 'Certificate number' }) as HTMLInputElement).value).toBe('CC-2026-000003');
    expect((screen.getByRole('textbox', { name: 'Verification code' }) as HTMLInputElement).value).toBe('K7QX2M9PLA4D');
  });

  it('shows a revoked certificate with the date it was revoked', async () => {
    answer = verification({ status: 'revoked', revokedAt: '2026-05-06 14:00:00' });
    open();
    const found = await result();
    expect(await within(found).findByText('This certificate has been revoked')).toBeTruthy();
    expect(within(found).getByText('Revoked on 2026-05-06: it no longer certifies anything.')).toBeTruthy();
  });

  it('shows an expired certificate and a superseded one, in Chinese too', async () => {
    setLocale('zh-CN', false);
    answer = verification({ status: 'expired', expiresAt: '2026-05-01 00:00:00' });
    open();
    expect(await within(await result('验证结果')).findByText('证书已过期')).toBeTruthy();
    expect(screen.getByText('2026-04-30')).toBeTruthy();
    cleanup();
    answer = verification({ status: 'superseded', expiresAt: null });
    open('/verify-cert?number=CC-2026-000004&code=K7QX2M9PLA4D');
    const found = await result('验证结果');
    expect(await within(found).findByText('证书已被新证书替换')).toBeTruthy();
    expect(within(found).getByText('持证人已获颁一张编号不同的更正证书，请向其索取。')).toBeTruthy();
    expect(within(found).getByText('长期有效')).toBeTruthy();
  });

  it('says no certificate matches, the same for a wrong code and an unknown number', async () => {
    answer = jsonResponse(404, { status: 404, message: 'no certificate has this number and code', timestamp: 0 });
    open();
    const found = await result();
    expect(await within(found).findByText('No certificate has this number and code')).toBeTruthy();
    expect(within(found).getByText('Check both against the certificate and try again.')).toBeTruthy();
    expect(within(found).queryByText('李*')).toBeNull();
  });

  it('asks someone checking too often to wait, then checks again on retry', async () => {
    answer = jsonResponse(429, { status: 429, message: 'too many certificate checks; wait a minute and try again', timestamp: 0 });
    open();
    const found = await result();
    expect(await within(found).findByText('Too many checks from your network just now. Wait a minute and try again.')).toBeTruthy();
    answer = verification();
    await userEvent.click(within(found).getByRole('button', { name: 'Try again' }));
    expect(await within(found).findByText('This certificate is valid')).toBeTruthy();
    expect(routes.callsTo('GET api/public/certificates/verify')).toHaveLength(2);
  });

  it('checks what is typed into the form, putting it in the address', async () => {
    const user = userEvent.setup();
    open('/verify-cert');
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify a certificate' })).toBeTruthy();
    // Nothing to check yet.
    expect(screen.queryByRole('region', { name: 'Result' })).toBeNull();
    expect(routes.calls).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: 'Certificate number' }), ' CC-2026-000003 ');
    await user.type(screen.getByRole('textbox', { name: 'Verification code' }), 'k7qx2m9pla4d');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await within(await result()).findByText('This certificate is valid')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/verify-cert?number=CC-2026-000003&code=k7qx2m9pla4d');
    const [call] = routes.callsTo('GET api/public/certificates/verify');
    expect(call?.params.get('number')).toBe('CC-2026-000003');
  });
});
