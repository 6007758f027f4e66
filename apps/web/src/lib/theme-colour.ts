import { readableShade } from '@cloud-classroom/shared/theme-contrast';

/** The lightest background the own pages put text on (styles.css `--color-bg`). */
const PAGE_BACKGROUND = '#f5f7fa';

/**
 * Puts the theme colour into the CSS variables the pages without antd use: `--color-primary` as
 * chosen, the accent; `--color-primary-strong` the first darker shade of its palette that reads
 * at 4.5:1, for text and filled buttons (white on #1890ff itself is 3.2:1).
 */
export function applyThemeColour(theme: string): void {
  const style = document.documentElement.style;
  style.setProperty('--color-primary', theme);
  style.setProperty('--color-primary-strong', readableShade(theme, PAGE_BACKGROUND));
}
