import { z } from 'zod';
import { createTimeRangeSchema, idSchema, idTextSchema, pageQuerySchema, queryFlagSchema, REQUIRED, sortableBy } from './http.js';
import { translate } from './messages.js';
import { formValidators, type FormValidator } from './validators.js';
import { NICK_NAME_MAX_LENGTH, NICK_NAME_MIN_LENGTH } from './text-limits.js';

/** eladmin's data-scope values, kept verbatim on the wire: all, own department, chosen departments. */
export const DATA_SCOPES = ['全部', '本级', '自定义'] as const;
export const dataScopeSchema = z.enum(DATA_SCOPES);

export const deptRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const roleRefSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  level: z.number().int(),
  dataScope: dataScopeSchema,
});

/** A user as every answer shows one. The password hash has no field here, so it cannot be sent. */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  nickName: z.string(),
  gender: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  avatarName: z.string().nullable(),
  enabled: z.boolean(),
  pwdResetTime: z.string().nullable(),
  dept: deptRefSchema.nullable(),
  roles: z.array(roleRefSchema),
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** Avatars larger than this are refused (413). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export const GENDERS = ['男', '女'] as const;

/** The fields the user list sorts by; anything else is refused rather than silently ignored. */
export const USER_SORT_FIELDS = [
  'id',
  'username',
  'nickName',
  'gender',
  'email',
  'phone',
  'enabled',
  'pwdResetTime',
  'createTime',
  'updateTime',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

// The server answers in English like its other validation messages; the wording is the front end's.
const ruleMessage = (validator: FormValidator) => translate('en-US', validator.messageKey);

/** Blank, null or absent all mean "not given" and are stored as null. */
const optionalText = (max: number, validator: FormValidator) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(validator.test, ruleMessage(validator))
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));

const idRefSchema = z.object({ id: idSchema });

export const passwordSchema = z.string().min(8, 'must be at least 8 characters').max(128);

const profileFields = {
  nickName: z.string().trim().min(NICK_NAME_MIN_LENGTH, 'must be 2 to 20 characters').max(NICK_NAME_MAX_LENGTH, 'must be 2 to 20 characters'),
  gender: z.enum(GENDERS).nullish().transform((value) => value ?? null),
  phone: optionalText(32, formValidators.mobile),
  email: optionalText(128, formValidators.email),
};

/**
 * A user name: ASCII letters, digits, `_`, `-` and `.`, 2 to 20 characters, so it can be typed on
 * any keyboard and read aloud; the nick name carries the person's name in any script.
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{2,20}$/;
export const usernameSchema = z
  .string(REQUIRED)
  .trim()
  .regex(USERNAME_PATTERN, translate('en-US', 'validation.usernameChars'));

/**
 * Before the rule, a name was any 2 to 20 characters. Such an account keeps its name when edited
 * (the service refuses only a change to a name outside the rule), and logs in as before.
 */
const legacyUsernameSchema = z.string().trim().min(2, 'must be 2 to 20 characters').max(20, 'must be 2 to 20 characters');

/** What an administrator may set on a user; anything else in the body is dropped, never stored. */
export const userCreateSchema = z.object({
  username: usernameSchema,
  ...profileFields,
  enabled: z.boolean(),
  dept: idRefSchema,
  roles: z.array(idRefSchema).min(1, 'choose at least one role').max(50),
});
export type UserCreate = z.output<typeof userCreateSchema>;

export const userUpdateSchema = userCreateSchema.extend({ id: idSchema, username: legacyUsernameSchema });
export type UserUpdate = z.output<typeof userUpdateSchema>;

/** The only time a generated password is shown: the server keeps nothing but its hash. */
export const userCreatedSchema = z.object({ password: z.string() });
export type UserCreated = z.infer<typeof userCreatedSchema>;

export const userIdsSchema = z.array(idSchema).min(1, 'choose at least one user').max(1000);

const resetPasswordBodySchema = z.object({
  ids: userIdsSchema,
  /** Absent: each user gets a generated password, answered once. */
  password: passwordSchema.optional(),
});

/** `{ ids, password? }`, or eladmin's body: a bare array of ids (generated passwords). */
export const resetPasswordSchema = z.preprocess((body) => (Array.isArray(body) ? { ids: body } : body), resetPasswordBodySchema);
export type ResetPassword = z.output<typeof resetPasswordSchema>;

export const resetPasswordResultSchema = z.object({
  passwords: z.array(z.object({ id: z.number().int(), username: z.string(), password: z.string() })),
});
export type ResetPasswordResult = z.infer<typeof resetPasswordResultSchema>;

/** The personal centre: what people may change about themselves. */
export const userCenterSchema = z.object(profileFields);
export type UserCenter = z.output<typeof userCenterSchema>;

export const updatePasswordSchema = z.object({
  oldPass: z.string().min(1, 'is required').max(128),
  newPass: passwordSchema,
});
export type UpdatePassword = z.output<typeof updatePasswordSchema>;

export const avatarResultSchema = z.object({ avatar: z.string() });

/** The user list's filters; the export takes the same ones. */
export const userFilterSchema = z.object({
  /** The department and everything below it. */
  deptId: idTextSchema.optional(),
  /** Matched against username, nick name, e-mail and phone. */
  blurry: z.string().trim().max(100).optional(),
  enabled: queryFlagSchema.optional(),
  createTime: createTimeRangeSchema.optional(),
  sort: sortableBy(USER_SORT_FIELDS),
});
export type UserFilter = z.output<typeof userFilterSchema>;

export const userQuerySchema = pageQuerySchema.extend(userFilterSchema.shape);
export type UserQuery = z.output<typeof userQuerySchema>;
