import { z } from 'zod';

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
