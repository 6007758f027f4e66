import { z } from 'zod';
import { createTimeRangeSchema, ID_MAX, idSchema, idTextSchema } from './http.js';

/** 0 directory, 1 page, 2 button. */
export const MENU_TYPES = [0, 1, 2] as const;
export const menuTypeSchema = z.literal(MENU_TYPES);

/** What a parent-less menu's `pid` is on the way in: eladmin's form sends 0 for "top level". */
export const TOP_LEVEL_PID = 0;


/** A menu record as lists, the lazy table and the parent picker show it. */
export const menuSchema = z.object({
  id: z.number().int(),
  pid: z.number().int().nullable(),
  type: menuTypeSchema,
  /** The Chinese title, which every menu has (eladmin's field). */
  title: z.string(),
  /** The English title; null when staff gave none, and the Chinese one is shown instead. */
  titleEn: z.string().nullable(),
  componentName: z.string().nullable(),
  component: z.string().nullable(),
  path: z.string().nullable(),
  icon: z.string().nullable(),
  menuSort: z.number().int(),
  permission: z.string().nullable(),
  iFrame: z.boolean(),
  cache: z.boolean(),
  hidden: z.boolean(),
  subCount: z.number().int(),
  // Element's lazy table and tree select read these three.
  hasChildren: z.boolean(),
  leaf: z.boolean(),
  label: z.string(),
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  /** Only where a tree is built (the parent picker). */
  get children() {
    return z.array(menuSchema).optional();
  },
});
export type Menu = z.infer<typeof menuSchema>;

export const menuListSchema = z.array(menuSchema);

/** One route of the caller's menu tree, as the web app's router and sidebar read it. */
export const menuRouteSchema = z.object({
  name: z.string().optional(),
  path: z.string(),
  hidden: z.boolean(),
  redirect: z.string().optional(),
  component: z.string().optional(),
  alwaysShow: z.boolean().optional(),
  meta: z.object({ title: z.string(), titleEn: z.string().nullable(), icon: z.string().nullable(), noCache: z.boolean() }).optional(),
  get children() {
    return z.array(menuRouteSchema).optional();
  },
});
export type MenuRoute = z.infer<typeof menuRouteSchema>;

export const menuRoutesSchema = z.array(menuRouteSchema);

const pidQuery = z.coerce.number().int().min(0).max(ID_MAX);

export const menuLazyQuerySchema = z.object({ pid: pidQuery.optional() });

export const menuQuerySchema = z.object({
  pid: pidQuery.optional(),
  blurry: z.string().trim().max(100).optional(),
  createTime: createTimeRangeSchema.optional(),
});
export type MenuQuery = z.output<typeof menuQuerySchema>;

export const menuIdsBodySchema = z.array(idSchema).max(1000);
export const menuDeleteBodySchema = menuIdsBodySchema.min(1, 'name at least one menu');

export const menuChildQuerySchema = z.object({ id: idTextSchema });
export const menuChildIdsSchema = z.array(z.number().int());

// The form sends '' for the fields a menu type does not use; they are stored as null.
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((text) => (text ? text : null));

export const MENU_DIRECTORY = 0;
export const MENU_PAGE = 1;
export const MENU_BUTTON = 2;

/** The fields whose use depends on the menu's type. */
type TypedMenuFields = {
  type: (typeof MENU_TYPES)[number];
  iFrame?: boolean | undefined;
  cache?: boolean | undefined;
  hidden?: boolean | undefined;
  path?: string | null | undefined;
  component?: string | null | undefined;
  componentName?: string | null | undefined;
  icon?: string | null | undefined;
  permission?: string | null | undefined;
};

/**
 * A menu with the fields its type does not use emptied, as eladmin's form hides them: a
 * directory grants no permission; a button has no route, icon, link or visibility of its own;
 * only a page that is not an external link names a component; only a page is cached. So a page
 * turned into a button keeps no stale route, whether the form or another client sent it.
 */
export function keepFieldsOfType<T extends TypedMenuFields>(menu: T): T {
  const { type } = menu;
  const iFrame = type !== MENU_BUTTON && (menu.iFrame ?? false);
  const componentPage = type === MENU_PAGE && !iFrame;
  return {
    ...menu,
    iFrame,
    cache: type === MENU_PAGE ? (menu.cache ?? false) : false,
    hidden: type === MENU_BUTTON ? false : (menu.hidden ?? false),
    icon: type === MENU_BUTTON ? null : (menu.icon ?? null),
    path: type === MENU_BUTTON ? null : (menu.path ?? null),
    component: componentPage ? (menu.component ?? null) : null,
    componentName: componentPage ? (menu.componentName ?? null) : null,
    permission: type === MENU_DIRECTORY ? null : (menu.permission ?? null),
  };
}

/** A menu's fields as the form edits them; the bodies below tidy them by type. */
export const menuFieldsSchema = z.object({
  title: z.string().trim().min(1, 'is required').max(100),
  titleEn: optionalText(100),
  type: menuTypeSchema,
  pid: z
    .number()
    .int()
    .min(0)
    .nullish()
    .transform((pid) => (pid === undefined || pid === null || pid === TOP_LEVEL_PID ? null : pid)),
  path: optionalText(255),
  component: optionalText(255),
  componentName: optionalText(100),
  icon: optionalText(64),
  permission: optionalText(100),
  menuSort: z.number().int().min(0).max(999_999).default(999),
  iFrame: z.boolean().default(false),
  cache: z.boolean().default(false),
  hidden: z.boolean().default(false),
});

export const menuCreateBodySchema = menuFieldsSchema.transform(keepFieldsOfType);
export type MenuCreateBody = z.input<typeof menuCreateBodySchema>;
export type MenuInput = z.output<typeof menuCreateBodySchema>;

export const menuUpdateBodySchema = menuFieldsSchema.extend({ id: idSchema }).transform(keepFieldsOfType);
export type MenuUpdateBody = z.input<typeof menuUpdateBodySchema>;

/** An external link's path is the address itself. */
export function isExternalMenuPath(path: string | null): boolean {
  return path !== null && /^https?:\/\//i.test(path);
}
