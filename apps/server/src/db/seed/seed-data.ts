import type { MenuSpec, RoleSpec } from '../migration-helpers.js';
import { COURSE_MENUS } from '../migrations/0010-courses.js';
import { ENROLMENT_MENUS } from '../migrations/0011-enrolment.js';
import { EXAM_MENUS } from '../migrations/0012-exams.js';
import { MARKING_MENUS } from '../migrations/0013-attempts.js';
import { CERTIFICATE_MENUS } from '../migrations/0015-certificates.js';
import { CERTIFICATE_PAGE_MENUS } from '../migrations/0016-certificate-pages.js';
import { CERTIFICATE_RULE_PAGE_MENUS } from '../migrations/0018-certificate-rule-page.js';
import { CENSUS_MENUS } from '../migrations/0019-census.js';

// The demo organisation: departments, the demo roles and the accounts, made on first start
// (an empty database) and by `npm run seed`. The system's menus, the administrators' role and
// the dictionaries are not here: migrations ship them (0009-system-data.ts), so upgraded
// installs get them too.

export type SeedDept = { name: string; children?: SeedDept[] };

export const seedDepts: SeedDept[] = [
  {
    name: '云课堂',
    children: [
      { name: '研发部' },
      { name: '培训部', children: [{ name: '讲师组' }, { name: '学员服务组' }] },
      { name: '市场部' },
    ],
  },
];

/**
 * `menus`: what the role is given (found by addMenus, as a migration shipped them). A migration
 * that ships menus for a demo role grants them where the role exists (an upgraded install); on
 * a fresh one the migrations run before the role is made, so the seed grants them here.
 */
export type SeedRole = RoleSpec & { depts?: string[]; menus?: MenuSpec[] };

/** The demo roles; `admin`, the administrators' role, is system data (migration 0009). */
export const seedRoles: SeedRole[] = [
  // The training department's teachers also train R&D, so the demo teacher can mark learner1's
  // exam (issue 13); 市场部 (learner2, heqian) stays outside: the demo's example of "out of scope".
  {
    name: 'teacher',
    level: 2,
    dataScope: '自定义',
    description: '讲师：培训部与研发部的课程、考试、阅卷和证书',
    descriptionEn: 'Teachers: content, exams, marking and certificates of the training department and R&D',
    depts: ['培训部', '研发部'],
    menus: [...COURSE_MENUS, ...ENROLMENT_MENUS, ...EXAM_MENUS, ...MARKING_MENUS, ...CERTIFICATE_MENUS, ...CERTIFICATE_PAGE_MENUS, ...CERTIFICATE_RULE_PAGE_MENUS, ...CENSUS_MENUS],
  },
  { name: 'learner', level: 3, dataScope: '本级', description: '学员：不进入后台', descriptionEn: 'Learners: no back office' },
];

export type SeedUser = {
  username: string;
  nickName: string;
  dept: string;
  /** By name: the demo roles above, or a system one. */
  roles: string[];
  gender: '男' | '女';
  email: string;
  phone: string;
  isAdmin?: boolean;
};

/**
 * The administrator comes with the demo people, not with the system data: every install needs
 * one, but its password is ADMIN_PASSWORD or one generated and shown once to whoever started
 * the server, which only the first start (or `npm run seed`) can do; a migration also runs for
 * upgrades and tests, with no one to show it to. It holds the system role `admin`.
 */
export const seedUsers: SeedUser[] = [
  { username: 'admin', nickName: '管理员', dept: '云课堂', roles: ['admin'], gender: '男', email: 'admin@example.com', phone: '18888888888', isAdmin: true },
  { username: 'teacher', nickName: '张老师', dept: '讲师组', roles: ['teacher'], gender: '女', email: 'teacher@example.com', phone: '13800000001' },
  { username: 'learner1', nickName: '李明', dept: '研发部', roles: ['learner'], gender: '男', email: 'liming@example.com', phone: '13800000002' },
  { username: 'learner2', nickName: '王芳', dept: '市场部', roles: ['learner'], gender: '女', email: 'wangfang@example.com', phone: '13800000003' },
  { username: 'learner3', nickName: '赵磊', dept: '学员服务组', roles: ['learner'], gender: '男', email: 'zhaolei@example.com', phone: '13800000004' },
];
