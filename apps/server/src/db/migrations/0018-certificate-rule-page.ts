import type { Kysely } from 'kysely';
import { addMenus, grantMenusToRole, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { COURSE_ROLES } from './0010-courses.js';

// The issuing rules' page (issue 14): 0017 gave the rules their API, this puts their list in the
// `cert` directory beside 0016's two pages. Held by those who hold the certificate pages; on a
// fresh install the demo teacher gets it from the seed (SeedRole.menus), as the role does not
// exist yet when this runs.

/** The page under 0015's directory, which addMenus finds by its path. */
export const CERTIFICATE_RULE_PAGE_MENUS: MenuSpec[] = [
  {
    title: '证书管理',
    titleEn: 'Certificates',
    type: 0,
    path: 'cert',
    children: [pageMenu(['颁发规则', 'Issuing rules'], 'rule', 'cert/rule/index', 'CertRule', 'guide', 'cert:list', { sort: 3 })],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, CERTIFICATE_RULE_PAGE_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await referenceData(db);
}
