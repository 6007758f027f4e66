import type { ThroughputScenario } from '../scenario.js';
import { BENCH_PASSWORD } from '../servers/bench-password.js';

export const menusBuild: ThroughputScenario = {
  kind: 'throughput',
  name: 'authenticated GET api/menus/build from the database',
  target: 0.6,
  subject: {
    server: 'servers/app-server.ts',
    path: '/api/menus/build',
    // A real login (captcha off for the bench), then every request carries the session token.
    prepare: async (baseUrl) => {
      const response = await fetch(`${baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: BENCH_PASSWORD }),
      });
      if (!response.ok) throw new Error(`bench login failed: ${response.status} ${await response.text()}`);
      const { token } = (await response.json()) as { token: string };
      return { authorization: token };
    },
  },
  reference: { server: 'servers/bare-menus-build.ts', path: '/api/menus/build' },
  shareData: true,
  sameAnswer: true,
};
