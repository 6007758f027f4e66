import type { Permission } from '@cloud-classroom/shared/permission';
import type { DataScope, MenuType } from '../schema.js';

export type SeedMenu = {
  title: string;
  titleEn: string;
  type: MenuType;
  path?: string;
  component?: string;
  componentName?: string;
  icon?: string;
  permission?: Permission;
  cache?: boolean;
  hidden?: boolean;
  children?: SeedMenu[];
};

/** The resources whose pages have add, edit and delete buttons. */
type CrudResource = 'user' | 'roles' | 'menu' | 'dept' | 'dict' | 'storage';

const crud = (prefix: CrudResource, noun: string, nounEn: string): SeedMenu[] => [
  { title: `${noun}新增`, titleEn: `Add ${nounEn}`, type: 2, permission: `${prefix}:add` },
  { title: `${noun}编辑`, titleEn: `Edit ${nounEn}`, type: 2, permission: `${prefix}:edit` },
  { title: `${noun}删除`, titleEn: `Delete ${nounEn}`, type: 2, permission: `${prefix}:del` },
];

const page = ([title, titleEn]: [string, string], path: string, component: string, componentName: string, icon: string, permission: Permission, children: SeedMenu[] = []): SeedMenu => ({
  title,
  titleEn,
  type: 1,
  path,
  component,
  componentName,
  icon,
  permission,
  cache: true,
  children,
});

/** The system menus; components name pages of the web app's page registry. */
export const seedMenus: SeedMenu[] = [
  {
    title: '系统管理',
    titleEn: 'System',
    type: 0,
    path: 'system',
    icon: 'system',
    children: [
      page(['用户管理', 'Users'], 'user', 'system/user/index', 'User', 'peoples', 'user:list', crud('user', '用户', 'user')),
      page(['角色管理', 'Roles'], 'role', 'system/role/index', 'Role', 'role', 'roles:list', crud('roles', '角色', 'role')),
      page(['菜单管理', 'Menus'], 'menu', 'system/menu/index', 'Menu', 'menu', 'menu:list', crud('menu', '菜单', 'menu')),
      page(['部门管理', 'Departments'], 'dept', 'system/dept/index', 'Dept', 'dept', 'dept:list', crud('dept', '部门', 'department')),
      page(['字典管理', 'Dictionaries'], 'dict', 'system/dict/index', 'Dict', 'dictionary', 'dict:list', crud('dict', '字典', 'dictionary')),
    ],
  },
  {
    title: '系统监控',
    titleEn: 'Monitoring',
    type: 0,
    path: 'monitor',
    icon: 'monitor',
    children: [
      page(['在线用户', 'Online users'], 'online', 'monitor/online/index', 'OnlineUser', 'online', 'online:list', [
        { title: '强制退出', titleEn: 'Force logout', type: 2, permission: 'online:del' },
      ]),
      page(['操作日志', 'Operation log'], 'logs', 'monitor/log/index', 'Log', 'log', 'log:list'),
      page(['异常日志', 'Error log'], 'errorLog', 'monitor/log/errorLog', 'ErrorLog', 'error', 'log:list'),
      page(['服务监控', 'Server status'], 'server', 'monitor/server/index', 'ServerMonitor', 'codeConsole', 'monitor:list'),
    ],
  },
  {
    title: '系统工具',
    titleEn: 'Tools',
    type: 0,
    path: 'sys-tools',
    icon: 'sys-tools',
    children: [
      page(['存储管理', 'Storage'], 'storage', 'tools/storage/index', 'Storage', 'qiniu', 'storage:list', crud('storage', '文件', 'file')),
      page(['接口文档', 'API docs'], 'swagger', 'tools/swagger/index', 'Swagger', 'swagger', 'swagger:list'),
    ],
  },
];

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

export type SeedRole = {
  name: string;
  level: number;
  dataScope: DataScope;
  description: string;
  /** Titles of the menus (and their buttons) the role gets; '*' for all. */
  menus: '*' | string[];
  depts?: string[];
};

export const seedRoles: SeedRole[] = [
  { name: 'admin', level: 1, dataScope: '全部', description: 'Administrators: everything', menus: '*' },
  {
    name: 'teacher',
    level: 2,
    dataScope: '自定义',
    description: 'Teachers: content, exams, marking and certificates of the training department',
    menus: [],
    depts: ['培训部'],
  },
  { name: 'learner', level: 3, dataScope: '本级', description: 'Learners: no back office', menus: [] },
];

export type SeedUser = {
  username: string;
  nickName: string;
  dept: string;
  roles: string[];
  gender: '男' | '女';
  email: string;
  phone: string;
  isAdmin?: boolean;
};

export const seedUsers: SeedUser[] = [
  { username: 'admin', nickName: '管理员', dept: '云课堂', roles: ['admin'], gender: '男', email: 'admin@example.com', phone: '18888888888', isAdmin: true },
  { username: 'teacher', nickName: '张老师', dept: '讲师组', roles: ['teacher'], gender: '女', email: 'teacher@example.com', phone: '13800000001' },
  { username: 'learner1', nickName: '李明', dept: '研发部', roles: ['learner'], gender: '男', email: 'liming@example.com', phone: '13800000002' },
  { username: 'learner2', nickName: '王芳', dept: '市场部', roles: ['learner'], gender: '女', email: 'wangfang@example.com', phone: '13800000003' },
  { username: 'learner3', nickName: '赵磊', dept: '学员服务组', roles: ['learner'], gender: '男', email: 'zhaolei@example.com', phone: '13800000004' },
];

export const seedDicts: Array<{ name: string; description: string; details: Array<[label: string, labelEn: string, value: string]> }> = [
  { name: 'user_status', description: '用户状态', details: [['激活', 'Active', 'true'], ['禁用', 'Disabled', 'false']] },
  { name: 'dept_status', description: '部门状态', details: [['启用', 'Enabled', 'true'], ['停用', 'Disabled', 'false']] },
  { name: 'gender', description: '性别', details: [['男', 'Male', '男'], ['女', 'Female', '女']] },
];
