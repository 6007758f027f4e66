// Enough to tell a person which of their sessions is which ("Chrome 126 on Windows"); the raw
// header is not kept.
const browsers: Array<[name: string, pattern: RegExp]> = [
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /OPR\/(\d+)/],
  ['WeChat', /MicroMessenger\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+).*Safari/],
  ['curl', /curl\/(\d+)/],
];
const systems: Array<[name: string, pattern: RegExp]> = [
  ['Android', /Android/],
  ['iOS', /iPhone|iPad|iPod/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux/],
];

export function describeBrowser(userAgent: string | undefined): string {
  if (userAgent === undefined || userAgent === '') return 'unknown';
  const browser = browsers.find(([, pattern]) => pattern.test(userAgent));
  const system = systems.find(([, pattern]) => pattern.test(userAgent));
  const name = browser === undefined ? userAgent.split(/[\s/]/)[0]?.slice(0, 40) || 'unknown' : `${browser[0]} ${browser[1].exec(userAgent)?.[1] ?? ''}`.trim();
  return system === undefined ? name : `${name} on ${system[0]}`;
}
