/**
 * Only this site's own paths: a crafted `?redirect=//evil.example` must not send anyone away.
 * Browsers drop tabs and newlines from a URL before reading it, so '/\t/evil.example' is
 * '//evil.example' to them: control characters are refused as well.
 */
export function safeRedirect(target: string | null): string | undefined {
  if (target === null || !target.startsWith('/')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001F\u007F]/.test(target)) return undefined;
  if (target.startsWith('//') || target.startsWith('/\\')) return undefined;
  return target;
}
