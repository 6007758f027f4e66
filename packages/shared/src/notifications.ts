import { z } from 'zod';
import { idSchema, pageOf, pageQuerySchema } from './http.js';
import { NOTIFICATION_KINDS } from './notification-kinds.js';

// In-app notifications (issue 15, part 4): what the bell of the back office's navbar and of the
// learner's header lists, and each person's choice of what they want to be told.

export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);

export const notificationParamsSchema = z.object({ title: z.string(), at: z.string().optional() });

/** One notification; its text comes from the catalogue by `kind`, filled with `params` (see notification-kinds.ts). */
export const notificationSchema = z.object({
  id: z.number().int(),
  kind: notificationKindSchema,
  params: notificationParamsSchema,
  /** A path of the web app to open (`/learning/3`), or null. */
  link: z.string().nullable(),
  createTime: z.string(),
  readTime: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET api/site/notifications`: unread ones first, then newest first; `unread=true` lists only the unread. */
export const notificationQuerySchema = pageQuerySchema.pick({ page: true, size: true }).extend({
  unread: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
});
export type NotificationQuery = z.output<typeof notificationQuerySchema>;

export const notificationPageSchema = pageOf(notificationSchema).extend({ unreadCount: z.number().int().nonnegative() });
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/** `PUT api/site/notifications/read`: my notifications to mark read (others' ids are ignored). */
export const notificationReadSchema = z.object({ ids: z.array(idSchema).min(1).max(500) });
export type NotificationRead = z.infer<typeof notificationReadSchema>;

/** What a mark answers: how many are still unread, for the badge. */
export const unreadCountSchema = z.object({ unreadCount: z.number().int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/** Each kind on (told) or off (nothing is written for it); every kind is on until turned off. */
export const notificationPreferencesSchema = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean()])) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodBoolean>,
);
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** `PUT api/site/notification-preferences`: the kinds to change; those not named stay as they are. */
export const notificationPreferencesUpdateSchema = notificationPreferencesSchema.partial().strict();
export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateSchema>;
