import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { addMenus, grantMenusToRole, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { COURSE_ROLES } from './0010-courses.js';

// The certificate pages (issue 14): the certificates and the templates, in the `cert` directory
// that 0015 made hidden with the cert:* buttons, which this shows now that its pages exist.
// The template editor, its preview and the issue page are hidden routes the list pages open.

/** The two pages under 0015's directory, which addMenus finds by its path. */
export const CERTIFICATE_PAGE_MENUS: MenuSpec[] = [
  {
    title: '证书管理',
    titleEn: 'Certificates',
    type: 0,
    path: 'cert',
    children: [
      pageMenu(['证书列表', 'Certificate list'], 'certificate', 'cert/certificate/index', 'CertCertificate', 'education', 'cert:list', { sort: 1 }),
      pageMenu(['证书模板', 'Certificate templates'], 'template', 'cert/template/index', 'CertTemplate', 'documentation', 'cert:list', { sort: 2 }),
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, CERTIFICATE_PAGE_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
  // Shown only when its pages arrive now: a directory an operator hid later stays hidden on a reseed.
  const [directory] = menus.ids;
  if (menus.inserted.length > 0 && directory !== undefined) {
    await (db as unknown as Kysely<Pick<Database, 'sys_menu'>>).updateTable('sys_menu').set({ hidden: 0 }).where('id', '=', directory).execute();
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await referenceData(db);
}
