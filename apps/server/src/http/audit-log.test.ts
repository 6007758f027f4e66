import { describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';

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
});
