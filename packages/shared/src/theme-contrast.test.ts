import { describe, expect, it } from 'vitest';
import { THEME_PRESETS } from './constants.js';
import { contrastRatio, darkerShades, READABLE_CONTRAST, readableShade } from './theme-contrast.js';

const PAGE = '#f5f7fa';

describe('readableShade', () => {
  // The shades are the back office's palette (antd's generate, shades 6 to 10), so the learner
  // pages' text is a colour the settings drawer shows.
  it.each([
    ['#409EFF', ['#409eff', '#2b7cd9', '#1b5db3', '#0e418c', '#092b66'], '#1b5db3'],
    ['#1890ff', ['#1890ff', '#096dd9', '#0050b3', '#003a8c', '#002766'], '#096dd9'],
    ['#304156', ['#304156', '#192330', '#05070a', '#000000', '#000000'], '#304156'],
    ['#212121', ['#212121', '#000000', '#000000', '#000000', '#000000'], '#212121'],
    ['#11a983', ['#11a983', '#078267', '#005c4b', '#00362e', '#000f0e'], '#005c4b'],
    ['#13c2c2', ['#13c2c2', '#08979c', '#006d75', '#00474f', '#002329'], '#006d75'],
    ['#6959CD', ['#6959cd', '#493fa6', '#302a80', '#1b1959', '#0e0e33'], '#6959cd'],
    ['#f5222d', ['#f5222d', '#cf1322', '#a8071a', '#820014', '#5c0011'], '#cf1322'],
  ])('%s: the first of its shades that reads at 4.5:1 on the page', (theme, shades, expected) => {
    expect(darkerShades(theme)).toEqual(shades);
    const shade = readableShade(theme, PAGE);
    expect(shade).toBe(expected);
    expect(contrastRatio(shade, PAGE)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
    // White text on a filled button of that shade reads too: white is lighter than the page.
    expect(contrastRatio('#ffffff', shade)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
    // And it is the first: every lighter shade of the palette fails.
    for (const lighter of shades.slice(0, shades.indexOf(expected))) expect(contrastRatio(lighter, PAGE)).toBeLessThan(READABLE_CONTRAST);
  });

  it('covers every preset the settings drawer offers', () => {
    for (const preset of THEME_PRESETS) expect(contrastRatio(readableShade(preset, PAGE), '#ffffff')).toBeGreaterThanOrEqual(READABLE_CONTRAST);
  });

  it('darkens past the palette a colour too light for any of its shades', () => {
    const shade = readableShade('#ffffff', PAGE);
    expect(contrastRatio(shade, PAGE)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
    expect(readableShade('#fffb8f')).not.toBe('#fffb8f');
    expect(contrastRatio(readableShade('#fffb8f'), '#ffffff')).toBeGreaterThanOrEqual(READABLE_CONTRAST);
  });

  it('gives the default theme’s shade for something that is not a colour, and takes #abc', () => {
    expect(readableShade('red')).toBe(readableShade('#1890ff'));
    expect(darkerShades('#18f')[0]).toBe('#1188ff');
  });

  it('measures contrast as WCAG 2 does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#1890ff')).toBeCloseTo(3.24, 2);
    expect(contrastRatio('#8c8c8c', '#ffffff')).toBeCloseTo(3.36, 2);
    expect(contrastRatio('#595959', '#ffffff')).toBeGreaterThan(7);
  });
});
