import { cleanup, render, screen, within } from '@testing-library/react';
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

  it('sends a signed-out visitor to the login, in a shell without search or avatar menu', () => {
    renderDownload();
    const main = screen.getByRole('main');
    expect(within(main).getByText('Nothing to download yet')).toBeTruthy();
    expect(within(main).getByRole('link', { name: 'Go to login' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
    expect(document.title).toBe('Download - Cloud Classroom');
  });

  it('offers a signed-in person the way back home, not a login', () => {
    useUserStore.setState({ token: 'Bearer t' });
    renderDownload();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/home');
    expect(screen.queryByRole('link', { name: 'Go to login' })).toBeNull();
    // Opened directly, the page has the session but not its person: no nameless avatar menu.
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
  });
});
