import { auditDescription, auditKeyOfDescription } from '@cloud-classroom/shared/audit-messages';
import { describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';

const CHINESE = /\p{Script=Han}/u;

describe('the audit log', () => {
  it('records writes but not reads that travel as a POST (a picker tree)', async () => {
    const app = await buildTestApp();
    try {
      const admin = await loginAs(app, 'admin');
      const picker = await app.inject({ method: 'POST', url: '/api/dept/superior', payload: [2], headers: { authorization: admin } });
      expect(picker.statusCode).toBe(200);
      const menuPicker = await app.inject({ method: 'POST', url: '/api/menus/superior', payload: [2], headers: { authorization: admin } });
      expect(menuPicker.statusCode).toBe(200);
      const created = await app.inject({
        method: 'POST',
        url: '/api/dept',
        payload: { name: '质量部', pid: 1, deptSort: 9, enabled: true },
        headers: { authorization: admin },
      });
      expect(created.statusCode).toBe(201);
      await app.auditLogSettled();
      const methods = (await app.services.database.db.selectFrom('sys_log').select('method').execute()).map((row) => row.method);
      expect(methods).toContain('POST /api/dept');
      expect(methods).not.toContain('POST /api/dept/superior');
      expect(methods).not.toContain('POST /api/menus/superior');
    } finally {
      await app.close();
    }
  });

  it('names every audited route in Chinese, with an English translation in the shared catalogue', async () => {
    const app = await buildTestApp();
    try {
      // Every write, every export and the login: at least the routes of each module.
      expect(app.auditedRoutes.length).toBeGreaterThan(40);
      for (const { method, url, description } of app.auditedRoutes) {
        const route = `${method} ${url}`;
        expect(description, `${route} has no audit description`).toBeDefined();
        const stored = description ?? '';
        expect(stored, `${route} is described in Chinese`).toMatch(CHINESE);
        expect(auditKeyOfDescription(stored), `${route}: '${stored}' is in the catalogue`).toBeDefined();
        expect(auditDescription('en-US', stored), `${route}: '${stored}' has English`).not.toMatch(CHINESE);
      }
    } finally {
      await app.close();
    }
  });

  it('stores the Chinese description of the action', async () => {
    const app = await buildTestApp();
    try {
      await loginAs(app, 'admin');
      await app.auditLogSettled();
      const rows = await app.services.database.db.selectFrom('sys_log').select(['description', 'method']).execute();
      expect(rows).toContainEqual({ description: '用户登录', method: 'POST /auth/login' });
    } finally {
      await app.close();
    }
  });
});
