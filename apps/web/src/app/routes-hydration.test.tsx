import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../lib/i18n';
import { createAppRoutes } from './routes';

// In a file of its own: react-router warns about a missing HydrateFallback once per module load.
describe('the first render of a lazily loaded route', () => {
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
    const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
    render(<RouterProvider router={router} />);
    expect(document.querySelector('.page-loading')).not.toBeNull();
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
    expect([...warn.mock.calls, ...error.mock.calls].flat().join('\n')).toBe('');
  });
});
