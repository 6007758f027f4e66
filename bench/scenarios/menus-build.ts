import { adminSession } from '../admin-session.js';
import type { ThroughputScenario } from '../scenario.js';

export const menusBuild: ThroughputScenario = {
  kind: 'throughput',
  name: 'authenticated GET api/menus/build from the database',
  target: 0.6,
  // Every request carries the session token of a real login.
  subject: { server: 'servers/app-server.ts', path: '/api/menus/build', prepare: adminSession },
  reference: { server: 'servers/bare-menus-build.ts', path: '/api/menus/build' },
  shareData: true,
  sameAnswer: true,
};
