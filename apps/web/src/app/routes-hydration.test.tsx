import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../lib/i18n';
import { AppRoutes } from './routes';

// In a file of its own, as a page's first load happens once per module load.
describe('the first render of a lazily loaded page', () => {
  beforeAll(async () => {
    await initI18n('en-US');
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it.each([
    ['/login', 'Cloud Classroom'],
    ['/download', 'Installation media'],
  ])('shows %s with a loading placeholder first and no warning', async (path, heading) => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    render(
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>,
    );
    expect(document.querySelector('.page-loading')).not.toBeNull();
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
    expect([...warn.mock.calls, ...error.mock.calls].flat().join('\n')).toBe('');
  });
});
