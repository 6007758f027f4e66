import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../lib/use-locale-text';
import { useUserStore } from '../auth/user-store';
import { DownloadPage } from './download-page';

function renderDownload() {
  render(
    <MemoryRouter>
      <DownloadPage />
    </MemoryRouter>,
  );
}

describe('the download page', () => {
  beforeEach(() => setLocale('en-US', false));
  afterEach(() => {
    cleanup();
    useUserStore.getState().resetToken();
  });

  it('sends a signed-out visitor to the login', () => {
    renderDownload();
    expect(screen.getByRole('link', { name: 'Go to login' }).getAttribute('href')).toBe('/login');
  });

  it('offers a signed-in person the way back home, not a login', () => {
    useUserStore.setState({ token: 'Bearer t' });
    renderDownload();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/home');
    expect(screen.queryByRole('link', { name: 'Go to login' })).toBeNull();
  });
});
