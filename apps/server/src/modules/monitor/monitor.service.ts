import fs from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { ServerMonitor, Usage } from '@cloud-classroom/shared/monitor';
import type { Clock } from '../../clock.js';
import type { AppDatabase } from '../../db/database.js';
import { databaseFigures } from './monitor.repo.js';

/** Long enough for a usage figure that means something, short enough for a page that refreshes itself. */
const CPU_SAMPLE_MS = 200;
const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** Leading units that are zero are left out: "5m 3s", "2d 0h 0m 7s". */
export function formatDuration(seconds: number): string {
  const whole = Math.floor(seconds);
  const parts: Array<[number, string]> = [
    [Math.floor(whole / 86_400), 'd'],
    [Math.floor((whole % 86_400) / 3600), 'h'],
    [Math.floor((whole % 3600) / 60), 'm'],
    [whole % 60, 's'],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  return parts
    .slice(first === -1 ? parts.length - 1 : first)
    .map(([value, unit]) => `${value}${unit}`)
    .join(' ');
}

const percent = (part: number, whole: number): string => (whole > 0 ? ((part / whole) * 100).toFixed(1) : '0.0');

function usage(total: number, available: number): Usage {
  const used = total - available;
  return { total: formatBytes(total), available: formatBytes(available), used: formatBytes(used), usageRate: percent(used, total) };
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Swap from /proc/meminfo (Linux); zeros where there is none to read. */
async function swapUsage(): Promise<Usage> {
  const meminfo = (await readText('/proc/meminfo')) ?? '';
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(meminfo)?.[1] ?? 0) * 1024;
  return usage(kib('SwapTotal'), kib('SwapFree'));
}

async function diskUsage(folder: string): Promise<Usage> {
  try {
    const stats = await fs.statfs(folder);
    return usage(stats.blocks * stats.bsize, stats.bavail * stats.bsize);
  } catch {
    return usage(0, 0);
  }
}

/** Physical packages and cores from /proc/cpuinfo (Linux); elsewhere one package whose cores are the logical CPUs. */
async function cpuTopology(logical: number): Promise<{ packages: number; cores: number }> {
  const cpuinfo = await readText('/proc/cpuinfo');
  const packages = new Set<string>();
  const cores = new Set<string>();
  for (const block of cpuinfo?.split(/\n\s*\n/) ?? []) {
    const physicalId = /^physical id\s*:\s*(\d+)/m.exec(block)?.[1];
    const coreId = /^core id\s*:\s*(\d+)/m.exec(block)?.[1];
    if (physicalId === undefined || coreId === undefined) continue;
    packages.add(physicalId);
    cores.add(`${physicalId}:${coreId}`);
  }
  return packages.size === 0 ? { packages: 1, cores: logical } : { packages: packages.size, cores: cores.size };
}

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/** CPU use across all CPUs over a short sample, as percentages. */
async function cpuLoad(): Promise<{ used: string; idle: string }> {
  const before = cpuTimes();
  await sleep(CPU_SAMPLE_MS);
  const after = cpuTimes();
  const total = after.total - before.total;
  const idle = after.idle - before.idle;
  return total > 0 ? { used: percent(total - idle, total), idle: percent(idle, total) } : { used: '0.0', idle: '100.0' };
}

function primaryIp(): string {
  const addresses = Object.values(os.networkInterfaces()).flatMap((entries) => entries ?? []);
  const external = addresses.filter((address) => !address.internal);
  return (external.find((address) => address.family === 'IPv4') ?? external[0])?.address ?? '127.0.0.1';
}

export class MonitorService {
  constructor(
    private readonly database: AppDatabase,
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}

  async snapshot(): Promise<ServerMonitor> {
    const cpus = os.cpus();
    const [load, topology, swap, disk, figures] = await Promise.all([
      cpuLoad(),
      cpuTopology(cpus.length),
      swapUsage(),
      diskUsage(this.dataDir),
      databaseFigures(this.database.db, this.database.dialect),
    ]);
    const memory = process.memoryUsage();
    return {
      sys: { os: `${os.type()} ${os.release()} ${os.arch()}`, day: formatDuration(os.uptime()), ip: primaryIp() },
      cpu: {
        name: cpus[0]?.model.trim() ?? 'unknown',
        package: topology.packages,
        core: topology.cores,
        coreNumber: topology.cores,
        logic: cpus.length,
        ...load,
      },
      memory: usage(os.totalmem(), os.freemem()),
      swap,
      disk,
      process: {
        pid: process.pid,
        uptime: formatDuration(process.uptime()),
        rss: formatBytes(memory.rss),
        heapUsed: formatBytes(memory.heapUsed),
        nodeVersion: process.version,
      },
      database: { dialect: this.database.dialect, version: figures.version, size: formatBytes(figures.size) },
      time: formatDateTime(this.clock.now(), '{h}:{i}:{s}'),
    };
  }
}
