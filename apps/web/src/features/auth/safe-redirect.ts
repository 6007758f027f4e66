/** Only this site's own paths: a crafted `?redirect=//evil.example` must not send anyone away. */
export function safeRedirect(target: string | null): string | undefined {
  if (target === null || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return undefined;
  return target;
}
