import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MENU_ICON_NAMES, MenuIcon } from './menu-icon';

// The icon names apps/server/src/db/migrations/0009-system-data.ts gives its menus, plus the dashboard's.
const SEEDED = ['index', 'system', 'peoples', 'role', 'menu', 'dept', 'dictionary', 'monitor', 'online', 'log', 'error', 'codeConsole', 'sys-tools', 'qiniu', 'swagger', 'database'];

describe('MenuIcon', () => {
  it('offers every seeded icon name in the picker list, each once', () => {
    for (const name of SEEDED) expect(MENU_ICON_NAMES).toContain(name);
    expect(new Set(MENU_ICON_NAMES).size).toBe(MENU_ICON_NAMES.length);
    expect(MENU_ICON_NAMES.length).toBeGreaterThanOrEqual(40);
  });

  it('loads and renders an svg icon for every offered name', async () => {
    const { container } = render(
      <>
        {MENU_ICON_NAMES.map((name) => (
          <i key={name} data-name={name}>
            <MenuIcon name={name} />
          </i>
        ))}
      </>,
    );
    await waitFor(
      () => {
        for (const name of MENU_ICON_NAMES) expect(container.querySelector(`[data-name="${name}"] span.anticon svg`), name).not.toBeNull();
      },
      { timeout: 20_000 },
    );
  }, 30_000);

  it('maps eladmin names to matching glyphs', async () => {
    const { container } = render(<MenuIcon name="system" />);
    await waitFor(() => expect(container.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('setting'));
  });

  it('renders nothing for an unknown, empty or missing name', () => {
    for (const name of ['no-such-icon', '', null, undefined, 'toString', '__proto__']) {
      const { container, unmount } = render(<MenuIcon name={name} />);
      expect(container.innerHTML).toBe('');
      unmount();
    }
  });
});
