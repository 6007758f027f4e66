import { pageOf } from '@cloud-classroom/shared/http';
import {
  menuChildIdsSchema,
  menuChildQuerySchema,
  menuCreateBodySchema,
  menuDeleteBodySchema,
  menuIdsBodySchema,
  menuLazyQuerySchema,
  menuListSchema,
  menuQuerySchema,
  menuRoutesSchema,
  menuSchema,
  menuUpdateBodySchema,
  type Menu,
} from '@cloud-classroom/shared/menus';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';
import { MenuService } from './menus.service.js';

const MENU_TYPE_NAMES = ['目录', '菜单', '按钮'] as const;
const yesNo = (flag: boolean) => (flag ? '是' : '否');

const exportColumns: XlsxColumn<Menu>[] = [
  { header: '菜单标题', value: (menu) => menu.title, width: 24 },
  { header: '英文标题', value: (menu) => menu.titleEn, width: 24 },
  { header: '菜单类型', value: (menu) => MENU_TYPE_NAMES[menu.type] },
  { header: '权限标识', value: (menu) => menu.permission },
  { header: '组件路径', value: (menu) => menu.component, width: 28 },
  { header: '路由地址', value: (menu) => menu.path, width: 28 },
  { header: '外链菜单', value: (menu) => yesNo(menu.iFrame) },
  { header: '菜单可见', value: (menu) => yesNo(!menu.hidden) },
  { header: '是否缓存', value: (menu) => yesNo(menu.cache) },
  { header: '排序', value: (menu) => menu.menuSort },
  { header: '创建日期', value: (menu) => menu.createTime, width: 20 },
];

export const menuRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const menus = new MenuService(services.database.db, services.access, services.clock);
  const canList = { permissions: ['menu:list'] } as const;

  app.get(
    '/api/menus/lazy',
    {
      // The role form picks menus from this tree too.
      config: { access: { permissions: ['menu:list', 'roles:list'] } },
      schema: { querystring: menuLazyQuerySchema, response: { 200: menuListSchema } },
    },
    async (request) => menus.lazy(request.query.pid),
  );

  app.get(
    '/api/menus',
    { config: { access: canList }, schema: { querystring: menuQuerySchema, response: { 200: pageOf(menuSchema) } } },
    async (request) => {
      const content = await menus.list(request.query);
      return { content, totalElements: content.length };
    },
  );

  app.get(
    '/api/menus/download',
    { config: { access: canList, audit: '导出菜单数据' }, schema: { querystring: menuQuerySchema } },
    async (request, reply) => sendXlsx(reply, '菜单数据', exportColumns, await menus.export(request.query)),
  );

  // A read that takes a list of ids, hence POST (eladmin's contract).
  app.post(
    '/api/menus/superior',
    {
      config: { access: canList, audit: false },
      schema: { body: menuIdsBodySchema, response: { 200: menuListSchema } },
    },
    async (request) => menus.superior(request.body),
  );

  app.get(
    '/api/menus/child',
    { config: { access: canList }, schema: { querystring: menuChildQuerySchema, response: { 200: menuChildIdsSchema } } },
    async (request) => menus.childIds(request.query.id),
  );

  app.get(
    '/api/menus/build',
    { config: { access: { authenticated: true } }, schema: { response: { 200: menuRoutesSchema } } },
    async (request) => menus.routes(principalOf(request)),
  );

  app.post(
    '/api/menus',
    { config: { access: { permissions: ['menu:add'] }, audit: '新增菜单' }, schema: { body: menuCreateBodySchema } },
    async (request, reply) => {
      await menus.create(request.body, principalOf(request));
      return reply.code(201).send();
    },
  );

  app.put(
    '/api/menus',
    { config: { access: { permissions: ['menu:edit'] }, audit: '修改菜单' }, schema: { body: menuUpdateBodySchema } },
    async (request, reply) => {
      const { id, ...input } = request.body;
      const changes = await menus.update(id, input, principalOf(request));
      if (changes.permission !== undefined) request.auditChanges = changes;
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/menus',
    { config: { access: { permissions: ['menu:del'] }, audit: '删除菜单' }, schema: { body: menuDeleteBodySchema } },
    async (request, reply) => {
      await menus.delete(request.body);
      return reply.code(200).send();
    },
  );
};
