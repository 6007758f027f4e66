// Zod-free, so the learner pages (the public download page) can show sizes as the back office does.

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** '512 B', '1.50 MiB': sizes as the storage list shows them. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`;
}
