// The theme colour is chosen for its look, not its legibility: white on #1890ff is 3.2:1 and
// #13c2c2 on white 2.2:1, below WCAG's 4.5:1 for text. Pages keep the theme colour as the accent
// (borders, rings, highlights) and take text and filled buttons from a darker shade of the same
// palette the back office shows (antd's: the colour, then four darker steps), the first that
// reads. Pure and zod-free, so the login page and learner pages can use it.

/** WCAG 2's minimum for body text. */
export const READABLE_CONTRAST = 4.5;

type Rgb = readonly [number, number, number];
type Hsv = { h: number; s: number; v: number };

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function parseHex(color: string): Rgb | undefined {
  const match = HEX.exec(color.trim());
  if (match === null) return undefined;
  let digits = match[1] ?? '';
  if (digits.length === 3) digits = [...digits].map((digit) => digit + digit).join('');
  const value = Number.parseInt(digits, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((part) => Math.round(part).toString(16).padStart(2, '0')).join('')}`;
}

function toHsv([r, g, b]: Rgb): Hsv {
  const [red, green, blue] = [r / 255, g / 255, b / 255];
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const delta = max - min;
  let h = 0;
  if (delta !== 0) {
    if (max === red) h = ((green - blue) / delta) % 6;
    else if (max === green) h = (blue - red) / delta + 2;
    else h = (red - green) / delta + 4;
    h *= 60;
    if (h < 0) h += 360;
  }
  return { h, s: max === 0 ? 0 : delta / max, v: max };
}

function fromHsv({ h, s, v }: Hsv): Rgb {
  const chroma = v * s;
  const x = chroma * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = v - chroma;
  const sector = Math.floor(h / 60) % 6;
  const [r, g, b] = ([
    [chroma, x, 0],
    [x, chroma, 0],
    [0, chroma, x],
    [0, x, chroma],
    [x, 0, chroma],
    [chroma, 0, x],
  ] as const)[sector] ?? [0, 0, 0];
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}

/** antd's darker steps (`@ant-design/colors`' generate, shades 7 to 10): hue turns, saturation rises, value falls. */
function darkerStep(hsv: Hsv, step: number): Rgb {
  const hue = Math.round(hsv.h);
  let h = hue >= 60 && hue <= 240 ? hue + 2 * step : hue - 2 * step;
  if (h < 0) h += 360;
  else if (h >= 360) h -= 360;
  let s = hsv.h === 0 && hsv.s === 0 ? hsv.s : step === 4 ? hsv.s + 0.16 : hsv.s + 0.05 * step;
  s = Math.round(Math.min(1, Math.max(0.06, s)) * 100) / 100;
  const v = Math.round(Math.max(0, Math.min(1, hsv.v - 0.15 * step)) * 100) / 100;
  return fromHsv({ h, s, v });
}

/** The colour and its four darker shades, as the back office's palette shows them (lower-case hex). */
export function darkerShades(color: string): string[] {
  const rgb = parseHex(color);
  if (rgb === undefined) return [];
  const hsv = toHsv(rgb);
  return [toHex(rgb), ...[1, 2, 3, 4].map((step) => toHex(darkerStep(hsv, step)))];
}

function luminance([r, g, b]: Rgb): number {
  const linear = (part: number) => {
    const c = part / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2's contrast ratio of two hex colours (1 to 21); 1 when either is not a colour. */
export function contrastRatio(a: string, b: string): number {
  const first = parseHex(a);
  const second = parseHex(b);
  if (first === undefined || second === undefined) return 1;
  const [light, dark] = [luminance(first), luminance(second)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The first of the colour's palette shades (itself, then darker) that reads at 4.5:1 on
 * `background`, for text in the theme colour and for filled buttons with white text (give the
 * lightest background the text sits on). A colour so light that even the darkest shade fails is
 * darkened further towards black; something that is not a colour gives the default theme's shade.
 */
export function readableShade(color: string, background = '#ffffff'): string {
  const shades = darkerShades(color);
  if (shades.length === 0) return readableShade('#1890ff', background);
  const readable = shades.find((shade) => contrastRatio(shade, background) >= READABLE_CONTRAST);
  if (readable !== undefined) return readable;
  const darkest = parseHex(shades.at(-1) ?? '#000000') ?? [0, 0, 0];
  for (let keep = 0.9; keep > 0; keep -= 0.1) {
    const darker = toHex([darkest[0] * keep, darkest[1] * keep, darkest[2] * keep]);
    if (contrastRatio(darker, background) >= READABLE_CONTRAST) return darker;
  }
  return '#000000';
}
