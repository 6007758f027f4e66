import type { ThroughputScenario } from '../scenario.js';

export const health: ThroughputScenario = {
  kind: 'throughput',
  name: 'GET /api/health through the whole middleware chain',
  target: 0.9,
  subject: { server: 'servers/app-server.ts', path: '/api/health' },
  reference: { server: 'servers/bare-http.ts', path: '/' },
};
