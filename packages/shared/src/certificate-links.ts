// Zod-free, so the learner pages (whose budget leaves no room for zod) can build the same links as the server.

/** The public page's address, which every certificate's QR code holds. */
export function certificateVerificationPath(number: string, code: string): string {
  return `/verify-cert?number=${encodeURIComponent(number)}&code=${encodeURIComponent(code)}`;
}
