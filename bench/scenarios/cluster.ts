import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { nginxInstalled, postgresReady, psql, startCluster, type Cluster, type ClusterNode } from '../../e2e/cluster/cluster.js';
import { canPin, cpuMsOf } from '../bench-process.js';
import { DEMO_EXAM_TITLE } from '../learner-attempt.js';
import type { MeasuredScenario } from '../scenario.js';
import { describeStep, P99_TARGET_MS, runStep, SPIKE_MS, STEADY_MS, stepHeld, tokenOf, type StepResult, type Taker } from './exam-takers.js';

// Issue 31, item 5: what a second node adds. The exam-takers load (exam-takers.ts: a start spike
// over 20 s, then a save every 10 s per taker, latency counted from when each request was due)
// through nginx with TLS (the deployment guide's docs/nginx.conf, e2e/cluster/cluster.ts) to ONE
// node, then to TWO, each on a fresh PostgreSQL database and an s3rver bucket: the same path both
// times, the number of nodes behind nginx the only difference. Each ramp goes up the same steps
// until one fails (an error, or a p99 over 200 ms) twice in a row: a failing step is run once
// more with new takers before it ends the ramp, as another load on a shared machine only ever
// slows a step (both runs are printed). The verdict is on the most takers each held, two nodes ÷
// one node, against ≥ 1.6.
//
// The starts come at random moments over the spike (seeded by the step's size, so both ramps get
// the same ones), not evenly spaced as in exam-takers: with even spacing every taker's saves,
// 10 s after its start, fall between two starts, the load goes out start, save, start, save, and
// nginx's round robin, which alternates requests, gave one node three starts in four.
//
// What the ratio means here: the nodes, nginx (doing TLS), PostgreSQL and the load generator
// (this process, which also encrypts every request) all share this machine's cores, nothing
// pinned (a pinning would only choose which of them starve). A second node gets no core of its
// own, only a share of the same ones, so the ratio is a lower bound of what a node on a machine of
// its own adds. On a 2-core machine PostgreSQL spends about as much CPU per request as the node,
// so one node near its limit and the rest already fill both cores, and the ratio stays near 1, or
// below it: each of two nodes spends more CPU per save (its group commits are half as large). Read
// the CPU lines (each process's share of a core in the spike and after it, what else ran, the
// machine's total, and the busiest second of each) to see which limit a step met.
//
// Opt-in (run only by `npm run bench -- --only cluster`): it takes 10 to 15 minutes and needs
// nginx and PostgreSQL, which the other scenarios do not; it fails at once naming what is missing.
// The cluster is stopped and its database dropped however the scenario ends, Ctrl-C included.

const TARGET_RATIO = 1.6;
/**
 * The same steps for one node and for two (`--cluster-takers` for others). Each is ~45 s; on the
 * 2-core CI machine either ramp held 3,000 or 3,500 (about 10 minutes in all), and the steps go on
 * to where a machine with cores to spare would take two nodes.
 */
export const DEFAULT_CLUSTER_STEPS = [1_000, 2_000, 3_000, 3_500, 4_000, 4_500, 5_000, 5_500, 6_000, 7_000, 8_000];

const REQUIREMENTS =
  'the cluster scenario needs nginx (apt-get install -y nginx), openssl, PostgreSQL answering on 127.0.0.1:5432 to the user postgres ' +
  'without a password (apt-get install -y postgresql, then pg_ctlcluster <version> main start; .ci/run does both) and its psql client, ' +
  'and the built server (npm run build)';

function missingRequirements(): string[] {
  const missing: string[] = [];
  if (!nginxInstalled()) missing.push('nginx is not installed');
  if (spawnSync('openssl', ['version']).status !== 0) missing.push('openssl is not installed');
  if (spawnSync('psql', ['--version']).status !== 0) missing.push('psql is not installed');
  else if (!postgresReady()) missing.push('PostgreSQL does not answer on 127.0.0.1:5432');
  return missing;
}

// ---- CPU by process, from /proc ------------------------------------------------------------------

const TICK_MS = 1000 / (Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);

/** A process's CPU so far (utime + stime), in ms. */
type ProcessCpu = { pid: number; ppid: number; name: string; ms: number };

/** A process's CPU so far, from /proc/<pid>/stat; undefined once it has ended. */
function processCpu(pid: number): ProcessCpu | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields are counted after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    return { pid, ppid: fields[1] ?? 0, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ms: ((fields[11] ?? 0) + (fields[12] ?? 0)) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** Every process's CPU so far. */
function processes(): Map<number, ProcessCpu> {
  const found = new Map<number, ProcessCpu>();
  for (const entry of fs.readdirSync('/proc')) {
    const cpu = /^\d+$/.test(entry) ? processCpu(Number(entry)) : undefined;
    if (cpu !== undefined) found.set(cpu.pid, cpu);
  }
  return found;
}

/** A process's title (its command line, which PostgreSQL rewrites to say what each process does). */
function titleOf(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

/** A process's children, from /proc/<pid>/task/<pid>/children (Linux 3.5+); undefined where it cannot be read. */
function childrenOf(pid: number): number[] | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return undefined;
  }
}

/**
 * The CPU so far of PostgreSQL's processes that work for the cluster: the backends connected to
 * its database (the process title names it) and the server's own (checkpointer, writers: shared
 * with whatever else the server runs), not the backends of other databases. Read often enough
 * (each second of a step), a backend that ends (the pool closing an idle connection) keeps the
 * CPU it had. `pids` are those running at the last reading.
 */
type PostgresCpu = { read: () => number; pids: () => number[] };

function postgresCpu(database: string): PostgresCpu {
  const all = processes();
  const postmaster = [...all.values()].find((each) => each.name === 'postgres' && all.get(each.ppid)?.name !== 'postgres');
  /** Every child seen: whether it is the cluster's, and its CPU when last read. */
  const known = new Map<number, { ours: boolean; ms: number }>();
  let running: number[] = [];
  const read = () => {
    running = postmaster === undefined ? [] : (childrenOf(postmaster.pid) ?? []);
    for (const pid of running) {
      let entry = known.get(pid);
      if (entry === undefined) {
        const title = titleOf(pid) ?? '';
        // "postgres: 15/main: postgres cc_cluster_… 127.0.0.1(…) idle" for a backend, "postgres: 15/main: walwriter" for the server's own.
        const backend = /^postgres: [^:]+: (\S+) (\S+) \S+\(\d+\)/.exec(title);
        entry = { ours: backend === null ? title.startsWith('postgres: ') : backend[2] === database, ms: 0 };
        known.set(pid, entry);
      }
      if (entry.ours) entry.ms = processCpu(pid)?.ms ?? entry.ms;
    }
    const postmasterMs = postmaster === undefined ? 0 : (processCpu(postmaster.pid)?.ms ?? 0);
    return [...known.values()].reduce((total, entry) => total + (entry.ours ? entry.ms : 0), postmasterMs);
  };
  read();
  return { read, pids: () => [...(postmaster === undefined ? [] : [postmaster.pid]), ...running.filter((pid) => known.get(pid)?.ours === true)] };
}

/** The machine's busy and total CPU time so far, in ms of all cores (from /proc/stat's first line). */
function machineCpuMs(): { busy: number; total: number } | undefined {
  try {
    const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1, 9).map(Number) ?? [];
    const total = ticks.reduce((sum, value) => sum + value, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
  } catch {
    return undefined;
  }
}

type CpuSnapshot = {
  at: number;
  /** The scenario's processes by group: each node, nginx, PostgreSQL, the load generator. */
  groups: Map<string, number>;
  /** Every other process, for naming what else ran. */
  others: Map<number, { name: string; ms: number }>;
  machine: { busy: number; total: number } | undefined;
};

/**
 * The CPU so far of each node, of nginx (master and workers), of PostgreSQL's processes for the
 * cluster and of the load generator (this process), with every other process's.
 */
function snapshot(cluster: Cluster<ClusterNode[]>, postgres: PostgresCpu): CpuSnapshot {
  const all = processes();
  const ours = new Set<number>();
  const sum = (pids: number[]) => {
    for (const pid of pids) ours.add(pid);
    return pids.reduce((total, pid) => total + (all.get(pid)?.ms ?? 0), 0);
  };
  const groups = new Map<string, number>();
  for (const node of cluster.nodes) groups.set(`node ${node.name}`, sum([node.pid()].filter((pid) => pid !== undefined)));
  groups.set('nginx', sum([cluster.nginxPid, ...[...all.values()].filter((each) => each.ppid === cluster.nginxPid).map((each) => each.pid)]));
  groups.set('PostgreSQL', postgres.read());
  for (const pid of postgres.pids()) ours.add(pid);
  groups.set('load generator', sum([process.pid]));
  const others = new Map<number, { name: string; ms: number }>();
  for (const each of all.values()) if (!ours.has(each.pid)) others.set(each.pid, { name: each.name, ms: each.ms });
  return { at: performance.now(), groups, others, machine: machineCpuMs() };
}

/**
 * Samples, once a second while a step runs, the machine's CPU, the nodes' and PostgreSQL's for the
 * cluster (reading a few files, not all of /proc, so as not to hold the load generator up);
 * `stop` answers the busiest second of each.
 */
function sampleEachSecond(cluster: Cluster<ClusterNode[]>, postgres: PostgresCpu): { stop: () => string } {
  const groups = new Map<string, () => number>();
  for (const node of cluster.nodes) {
    groups.set(`node ${node.name}`, () => {
      const pid = node.pid();
      return pid === undefined ? 0 : (processCpu(pid)?.ms ?? 0);
    });
  }
  groups.set('PostgreSQL', postgres.read);
  const read = () => ({ at: performance.now(), machine: machineCpuMs(), groups: new Map([...groups].map(([name, ms]) => [name, ms()])) });
  let last = read();
  const busiest = new Map<string, number>();
  const timer = setInterval(() => {
    const now = read();
    const elapsed = now.at - last.at;
    const keep = (name: string, share: number) => busiest.set(name, Math.max(busiest.get(name) ?? 0, share));
    if (now.machine !== undefined && last.machine !== undefined) {
      keep('the machine', ((now.machine.busy - last.machine.busy) * os.cpus().length * 100) / (now.machine.total - last.machine.total));
    }
    for (const [name, ms] of now.groups) keep(name, ((ms - (last.groups.get(name) ?? 0)) * 100) / elapsed);
    last = now;
  }, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return [...busiest].map(([name, share]) => `${name} ${Math.round(share)} %${name === 'the machine' ? ` of ${os.cpus().length * 100} %` : ''}`).join(', ');
    },
  };
}

/** Each group's share of a core between two snapshots (100 % a core), what else ran, and how busy the whole machine was. */
function describeCpu(before: CpuSnapshot, after: CpuSnapshot): string {
  const elapsed = after.at - before.at;
  const percent = (ms: number) => `${Math.round((ms * 100) / elapsed)} %`;
  let ours = 0;
  const parts: string[] = [];
  for (const [group, ms] of after.groups) {
    const used = ms - (before.groups.get(group) ?? 0);
    ours += used;
    parts.push(`${group} ${percent(used)}`);
  }
  if (before.machine === undefined || after.machine === undefined) return parts.join(', ');
  const busy = after.machine.busy - before.machine.busy;
  const total = after.machine.total - before.machine.total;
  const cores = os.cpus().length;
  // The busiest of the rest, by name (a process that ended meanwhile, and the kernel's own work, count only in the total).
  const rest = [...after.others]
    .map(([pid, { name, ms }]) => ({ name, ms: ms - (before.others.get(pid)?.ms ?? 0) }))
    .filter((each) => (each.ms * 100) / elapsed >= 5)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
  return (
    `${parts.join(', ')}, anything else ${percent(Math.max(0, busy - ours))}` +
    (rest.length === 0 ? '' : ` (${rest.map((each) => `${each.name} ${percent(each.ms)}`).join(', ')})`) +
    `; the machine ${Math.round((busy * 100 * cores) / total)} % of ${cores * 100} %`
  );
}

// ---- the takers, in PostgreSQL -----------------------------------------------------------------

/** PostgreSQL's text for a string literal. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Learners assigned the demo exam, each with a live session, written straight to the cluster's
 * database in one statement (exam-takers.ts's makeTakers on PostgreSQL): accounts that cannot sign
 * in, the learner role, an assignment by staff, and a session last seen up to a minute ago (the
 * product's once-a-minute session touch then runs as in a long exam), its id 24 random bytes in
 * base64url as the product makes them.
 */
function makeTakers(database: string, secret: string, count: number, offset: number): Taker[] {
  const now = Date.now();
  const rows = psql(
    database,
    `with params as (
       select (select id from sys_dept order by id limit 1) as dept_id,
              (select id from sys_role where name = 'learner') as role_id,
              (select id from edu_exam where title = ${literal(DEMO_EXAM_TITLE)}) as exam_id
     ), users as (
       insert into sys_user (dept_id, username, nick_name, password_hash, is_admin, enabled, create_by, update_by, create_time, update_time)
       select params.dept_id, 'taker' || n, '考生 ' || n, 'no-login', 0, 1, 'bench', 'bench', ${now}, ${now}
       from params, generate_series(${offset + 1}, ${offset + count}) as n
       returning id
     ), roles as (
       insert into sys_users_roles (user_id, role_id) select users.id, params.role_id from users, params
     ), assigned as (
       insert into edu_exam_assignee (exam_id, user_id, source, extra_minutes, extra_attempts, create_by, create_time, update_time)
       select params.exam_id, users.id, 'staff', 0, 0, 'bench', ${now}, ${now} from users, params
     ), sessions as (
       insert into sys_session (id, user_id, ip, browser, created_at, last_seen_at, expires_at)
       select translate(encode(substring(decode(md5(random()::text) || md5(random()::text), 'hex') from 1 for 24), 'base64'), '+/', '-_'),
              users.id, '127.0.0.1', 'bench', ${now - 60_000}, ${now} - floor(random() * 60000)::bigint, ${now + 4 * 3_600_000}
       from users
       returning id, user_id
     )
     select user_id, id from sessions order by user_id`,
  );
  if (rows.length !== count) throw new Error(`cluster: ${rows.length} takers made of ${count}`);
  return rows.map((row) => {
    const [userId, sessionId] = row.split('\t') as [string, string];
    return { userId: Number(userId), token: tokenOf(secret, sessionId, now) };
  });
}

// ---- Ctrl-C ------------------------------------------------------------------------------------

/**
 * While the scenario runs, SIGINT or SIGTERM (Ctrl-C) stops the cluster running or starting (its
 * nodes, nginx, s3rver, and its database dropped) before the bench exits with 130; `done` puts the
 * signals back as they were.
 */
function stopClusterOnSignal() {
  let current: Promise<{ stop: () => Promise<void> } | undefined> | undefined;
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    process.stdout.write(`\n${signal}: stopping the cluster and dropping its database…\n`);
    void (current ?? Promise.resolve(undefined))
      .then((cluster) => cluster?.stop())
      .catch((error: unknown) => console.error('cluster: stopping after', signal, error))
      .finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    /** Starts a cluster the signals will stop; a signal during its start stops it once started. */
    start: async <T extends { stop: () => Promise<void> }>(starting: Promise<T>): Promise<T> => {
      current = starting.catch(() => undefined);
      const cluster = await starting;
      if (interrupted) await new Promise(() => {}); // The handler stops it and exits.
      return cluster;
    },
    stopped: () => void (current = undefined),
    done: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

// ---- the scenario ------------------------------------------------------------------------------

type Ramp = { nodes: 1 | 2; results: StepResult[] };

const heldOf = (ramp: Ramp) => ramp.results.filter(stepHeld).at(-1);

export function clusterTakers(steps: number[] = DEFAULT_CLUSTER_STEPS): MeasuredScenario {
  return {
    kind: 'measured',
    name: 'cluster: takers through nginx, two nodes against one',
    optIn: true,
    run: async () => {
      const missing = missingRequirements();
      if (missing.length > 0) throw new Error(`${missing.join('; ')}: ${REQUIREMENTS}`);
      // The runner pins itself to core 1 (run.ts), which the nodes and nginx it starts would inherit:
      // here every process may use every core, as on a machine that runs them all.
      const allCores = `0-${os.cpus().length - 1}`;
      if (canPin) spawnSync('taskset', ['-a', '-cp', allCores, String(process.pid)], { stdio: 'ignore' });
      const signals = stopClusterOnSignal();
      try {
        const ramps: Ramp[] = [];
        for (const nodes of [1, 2] as const) {
          process.stdout.write(`\n  ${nodes === 1 ? 'one node' : 'two nodes'} behind nginx:`);
          const starting: Promise<Cluster<ClusterNode[]>> = nodes === 1 ? startCluster({ nodes: 1 }) : startCluster({ nodes: 2 });
          const cluster = await signals.start(starting);
          const ramp: Ramp = { nodes, results: [] };
          ramps.push(ramp);
          try {
            const [secret] = psql(cluster.database, "select value from app_setting where key = 'jwt_secret'");
            const [examId] = psql(cluster.database, `select id from edu_exam where title = ${literal(DEMO_EXAM_TITLE)}`);
            if (secret === undefined || examId === undefined) throw new Error('cluster: no signing secret or no demo exam in the database');
            const target = {
              baseUrl: cluster.url,
              ca: cluster.certificate,
              cpuMs: () => cluster.nodes.reduce((total, node) => total + (cpuMsOf(node.pid()) ?? 0), 0),
            };
            const postgres = postgresCpu(cluster.database);
            let made = 0;
            /** A step with takers of its own, its line, and its CPU in the spike and after it. */
            const measure = async (count: number, again: boolean): Promise<StepResult> => {
              const takers = makeTakers(cluster.database, secret, count, made);
              made += count;
              const before = snapshot(cluster, postgres);
              let spikeEnd: CpuSnapshot | undefined;
              const spikeTimer = setTimeout(() => (spikeEnd = snapshot(cluster, postgres)), SPIKE_MS);
              const seconds = sampleEachSecond(cluster, postgres);
              const result = await runStep({ ...target, randomStarts: { seed: count } }, Number(examId), takers).finally(() => clearTimeout(spikeTimer));
              const busiest = seconds.stop();
              const after = snapshot(cluster, postgres);
              process.stdout.write(
                `\n    ${again ? 'again, ' : ''}${describeStep(result)}` +
                  (spikeEnd === undefined
                    ? `\n      CPU (100 % a core): ${describeCpu(before, after)}`
                    : `\n      CPU in the spike (100 % a core): ${describeCpu(before, spikeEnd)}\n      CPU after it: ${describeCpu(spikeEnd, after)}`) +
                  `\n      busiest second: ${busiest}`,
              );
              return result;
            };
            for (const count of steps) {
              let result = await measure(count, false);
              // A failure is confirmed before it ends the ramp: another load on the machine only ever
              // slows a step, so a step that holds when run again holds.
              if (!stepHeld(result)) result = await measure(count, true);
              ramp.results.push(result);
              if (!stepHeld(result)) break;
            }
          } finally {
            await cluster.stop();
            signals.stopped();
          }
        }
        const [one, two] = ramps as [Ramp, Ramp];
        const [heldOne, heldTwo] = [heldOf(one), heldOf(two)];
        const ratio = heldOne === undefined ? undefined : (heldTwo?.takers ?? 0) / heldOne.takers;
        const describe = (ramp: Ramp) => {
          const held = heldOf(ramp);
          const failed = ramp.results.find((result) => !stepHeld(result));
          const name = ramp.nodes === 1 ? 'one node' : 'two nodes';
          return (
            `${name} held ${held === undefined ? 'none' : `${held.takers.toLocaleString('en-US')} (p99 ${Math.round(held.p99)} ms)`}` +
            (failed === undefined
              ? `, every step (up to ${steps.at(-1)?.toLocaleString('en-US')})`
              : `, not ${failed.takers.toLocaleString('en-US')} (p99 ${Math.round(failed.p99)} ms, ${failed.errors} errors)`)
          );
        };
        process.stdout.write(
          `\n  ${describe(one)}; ${describe(two)}: two ÷ one = ${ratio === undefined ? 'n/a' : ratio.toFixed(2)}, a lower bound: ` +
            `the nodes, nginx (TLS), PostgreSQL and the load generator all share ${os.cpus().length} cores, nothing pinned`,
        );
        return {
          subject: describe(two),
          reference: describe(one),
          detail: `spike ${SPIKE_MS / 1000} s, then ${STEADY_MS / 1000} s; all on ${os.cpus().length} cores: a lower bound`,
          ratio: `${ratio === undefined ? 'n/a' : ratio.toFixed(2)} (takers, two ÷ one)`,
          target: `≥ ${TARGET_RATIO.toFixed(2)}, 0 errors, p99 ≤ ${P99_TARGET_MS} ms`,
          met: ratio !== undefined && ratio >= TARGET_RATIO,
        };
      } finally {
        signals.done();
        if (canPin) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
      }
    },
  };
}
