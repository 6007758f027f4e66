import fs from 'node:fs';
import autocannon from 'autocannon';
import { progressReport } from './scenarios/progress-report.ts';
const [baseUrl, pid] = [process.argv[2]!, Number(process.argv[3])];
const headers = await progressReport.subject.prepare!(baseUrl);
const cpu = () => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); const x = f.slice(f.lastIndexOf(')') + 2).split(' '); return { u: Number(x[11]) * 10, s: Number(x[12]) * 10 }; };
for (const [name, opts] of [
  ['POST report', { method: 'POST' as const, url: `${baseUrl}${progressReport.subject.path}`, body: progressReport.subject.body }],
  ['GET lesson', { method: 'GET' as const, url: `${baseUrl}/api/site/lessons/1` }],
  ['GET my study', { method: 'GET' as const, url: `${baseUrl}/api/site/my/study?days=1` }],
  ['POST report', { method: 'POST' as const, url: `${baseUrl}${progressReport.subject.path}`, body: progressReport.subject.body }],
] as const) {
  const before = cpu();
  const result = await autocannon({ ...opts, headers: { ...headers, 'content-type': 'application/json' }, connections: 10, duration: 4 });
  const after = cpu();
  const n = result.requests.total;
  console.log(name, 'req/s', result.requests.average, 'user µs/req', Math.round(((after.u - before.u) * 1000) / n), 'sys µs/req', Math.round(((after.s - before.s) * 1000) / n), 'non2xx', result.non2xx);
}
