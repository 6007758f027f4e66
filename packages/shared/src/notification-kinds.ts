// Zod-free, so that the learner's pages (which may not load zod) share the kinds and their texts.

/** What a person can be told of; each kind has its text in the shared catalogue (`notification.text.<kind>`). */
export const NOTIFICATION_KINDS = [
  'course_assigned',
  'exam_assigned',
  'due_soon',
  'exam_open',
  'result_released',
  'certificate_issued',
  'certificate_expiring',
  'enrolment_approved',
  'enrolment_rejected',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * What a notification's text is filled with: the title of the course, exam or certificate (data,
 * in whatever language staff wrote it) and, for the kinds about a date, that date on the wire
 * (`yyyy-MM-dd HH:mm:ss`). Stored rather than the text itself, so that it reads in the language
 * the person has chosen now, not the one of the moment it was written.
 */
export type NotificationParams = { title: string; at?: string | undefined };

/** How long before a due date the reminder comes. */
export const DUE_SOON_BEFORE_MS = 3 * 24 * 60 * 60 * 1000;
/** How long before a certificate expires its holder is told. */
export const CERTIFICATE_EXPIRING_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;

/** The catalogue key of a kind's text and of its name (the preferences' labels). */
export const notificationTextKey = (kind: NotificationKind) => `notification.text.${kind}` as const;
export const notificationKindKey = (kind: NotificationKind) => `notification.kind.${kind}` as const;

/** What `/websocket` pushes to each open socket of a person told something new. */
export type NotificationPushMessage<N = unknown> = { type: 'notification'; unreadCount: number; notification: N };
