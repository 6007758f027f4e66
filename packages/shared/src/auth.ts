import { z } from 'zod';
import { userSchema } from './users.js';

export const captchaSchema = z.object({
  /** A data URL, usable as an <img src> as it is. */
  img: z.string(),
  uuid: z.string(),
  /** False when the server runs with CAPTCHA_ENABLED=false: the login form then hides the code field. */
  enabled: z.boolean(),
});
export type Captcha = z.infer<typeof captchaSchema>;

export const loginBodySchema = z.object({
  username: z.string().trim().min(1, 'is required').max(64),
  password: z.string().min(1, 'is required').max(128),
  // Not needed when the server runs with CAPTCHA_ENABLED=false.
  code: z.string().trim().max(16).default(''),
  uuid: z.string().max(64).default(''),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const authInfoSchema = z.object({
  user: userSchema,
  /** Permission strings of the user's roles' menus and buttons; 'admin' passes everything. */
  roles: z.array(z.string()),
  /** Department ids the user may see; empty means all. */
  dataScopes: z.array(z.number().int()),
});
export type AuthInfo = z.infer<typeof authInfoSchema>;

export const loginResponseSchema = z.object({
  /** Already prefixed with 'Bearer ', ready for the Authorization header. */
  token: z.string(),
  user: authInfoSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** `/websocket?token=…`: browsers cannot set headers on a WebSocket, so the token travels here, with or without 'Bearer '. */
export const websocketQuerySchema = z.object({ token: z.string().default('') });

/**
 * What `/websocket` pushes before it closes a socket whose session was ended elsewhere (kicked
 * out, logged out, password changed); `reason` says which.
 */
export const sessionEndedMessageSchema = z.object({ type: z.literal('session-ended'), reason: z.string() });
export type SessionEndedMessage = z.infer<typeof sessionEndedMessageSchema>;

/** The close code of a socket without a live session (4000-4999 are the application's own). */
export const SOCKET_CLOSE_UNAUTHORIZED = 4401;
/** The close code of a session's oldest socket, closed for a newer one past the session's cap. */
export const SOCKET_CLOSE_REPLACED = 4409;
/** The close code of a socket refused because the person holds their cap of sockets (1008: policy violation). */
export const SOCKET_CLOSE_TOO_MANY = 1008;
/** The close code of a socket refused because the server holds its total (1013: try again later). */
export const SOCKET_CLOSE_BUSY = 1013;
