import type { MyCertificate } from '@cloud-classroom/shared/certificates';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt, signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { myCertificate } from './site-certificate-fixture';
import { ViewCertPage } from './view-cert-page';

// The header's notification bell asks for its list on every page; not this page's own request.
const NOTIFICATIONS = 'api/site/notifications';

describe('a certificate of mine (/view-cert)', () => {
  let answer: MyCertificate | Response;
  let routes: ReturnType<typeof stubRoutes>;

  const open = (path = '/view-cert?id=3') => renderAt(<ViewCertPage />, path, '/view-cert');

  beforeEach(() => {
    setLocale('en-US', false);
    signIn();
    answer = myCertificate(3, 'Fire safety', { score: '92.5', expiresOn: '2028-03-01', expiresAt: '2028-03-02 00:00:00' });
    routes = stubRoutes({ 'GET api/site/my/certificates/3': () => answer });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it('shows what the certificate says, its PDF and the verification link its QR code holds', async () => {
    open();
    const sheet = await screen.findByRole('region', { name: 'Fire safety' });
    await waitFor(() => expect(document.title).toBe('Fire safety - Cloud Classroom'));
    expect(within(sheet).getByText('李明')).toBeTruthy();
    expect(within(sheet).getByText('Valid')).toBeTruthy();
    expect(within(sheet).getByText('CC-2026-000003')).toBeTruthy();
    expect(within(sheet).getByText('92.5')).toBeTruthy();
    expect(within(sheet).getByText('2026-03-02')).toBeTruthy();
    expect(within(sheet).getByText('2028-03-01')).toBeTruthy();
    expect(screen.queryByRole('status', { name: /revoked/ })).toBeNull();

    const pdf = screen.getByRole('link', { name: 'Download PDF' });
    expect(pdf.getAttribute('href')).toBe('/api/certificates/3/pdf');
    expect(pdf.getAttribute('download')).toBe('CC-2026-000003.pdf');

    const verification = screen.getByRole('region', { name: 'Verification' });
    const url = `${window.location.origin}/verify-cert?number=CC-2026-000003&code=K7QX2M9PLA4D`;
    expect((within(verification).getByRole('textbox', { name: 'Verification link' }) as HTMLInputElement).value).toBe(url);
    expect(within(verification).getByText('K7QX2M9PLA4D')).toBeTruthy();
    expect(within(verification).getByRole('link', { name: 'Open the verification page' }).getAttribute('href')).toBe(
      '/verify-cert?number=CC-2026-000003&code=K7QX2M9PLA4D',
    );
    expect(screen.getByRole('link', { name: 'My certificates' }).getAttribute('href')).toBe('/user-center');
    expect(routes.callsTo('GET api/site/my/certificates/3')).toHaveLength(1);
  });

  it('copies the verification link, and says so', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    // userEvent.setup() installs its own clipboard: replace it after.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    open();
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/verify-cert?number=CC-2026-000003&code=K7QX2M9PLA4D`);
    expect(await screen.findByText('Link copied')).toBeTruthy();
  });

  it('says when the link could not be copied', async () => {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true });
    open();
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('The link could not be copied: select it and copy it yourself.')).toBeTruthy();
  });

  it('says a revoked certificate was revoked, when and why, in Chinese too', async () => {
    setLocale('zh-CN', false);
    answer = myCertificate(3, '消防安全', { status: 'revoked', revokedAt: '2026-05-06 14:00:00', revokeReason: '成绩有误' });
    open();
    expect(await screen.findByText('此证书已于 2026-05-06 撤销。')).toBeTruthy();
    expect(screen.getByText('原因：成绩有误')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: '消防安全' })).getByText('已撤销')).toBeTruthy();
    expect(screen.getByText('长期有效')).toBeTruthy();
  });

  it('leads from a superseded certificate to the one that replaced it', async () => {
    answer = myCertificate(3, 'Fire safety', { status: 'superseded', supersededBy: 8 });
    open();
    expect(await screen.findByText('A newer certificate replaces this one.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View the new certificate' }).getAttribute('href')).toBe('/view-cert?id=8');
  });

  it('says when an expired certificate stopped being valid', async () => {
    answer = myCertificate(3, 'Fire safety', { status: 'expired', expiresOn: '2026-04-30', expiresAt: '2026-05-01 00:00:00' });
    open();
    expect(await screen.findByText('This certificate expired after 2026-04-30.')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Fire safety' })).getByText('Expired')).toBeTruthy();
  });

  it("answers another person's certificate, or a bad id, as not found, without asking for a bad id", async () => {
    answer = jsonResponse(404, { status: 404, message: 'id: no certificate 3', timestamp: 0 });
    open();
    expect(await screen.findByText('Not found, or no longer published')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download PDF' })).toBeNull();
    cleanup();
    open('/view-cert?id=x');
    expect(await screen.findByText('Not found, or no longer published')).toBeTruthy();
    expect(routes.calls.filter((call) => call.path !== 'api/site/my/certificates/3' && call.path !== NOTIFICATIONS)).toEqual([]);
  });

  it('shows a failure in place and loads again on retry', async () => {
    answer = jsonResponse(500, { status: 500, message: 'internal server error', timestamp: 0 });
    open();
    const alert = await screen.findByRole('alert');
    answer = myCertificate(3, 'Fire safety');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Download PDF' })).toBeTruthy();
  });
});
