// What the bench's runner and its scenarios share: starting a server under test on its core,
// reading a process's CPU time from /proc, stopping it, medians.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { once } from 'node:events';
import type { Endpoint } from './scenario.js';

/** Servers run on core 0 and the load on core 1 where taskset exists. */
export const canPin = spawnSync('taskset', ['--version']).status === 0;

const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time a process has used so far, in milliseconds (all its threads); undefined without /proc. */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The command name, in parentheses, may hold spaces: the fields are counted after its end.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Resolves with the first group of `ready` once the child prints it; rejects if it exits first. */
export function readyLine(child: ChildProcess, ready: RegExp, name: string): Promise<string> {
  let output = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export type Running = { baseUrl: string; headers: Record<string, string>; child: ChildProcess };

export async function startServer(endpoint: Endpoint, env: Record<string, string> = {}): Promise<Running> {
  // BENCH_CPU_PROFILE=<dir>: each server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`];
  const command = [process.execPath, ...profile, '--import', 'tsx', endpoint.server];
  const [file, ...args] = canPin ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(file as string, args, {
    cwd: import.meta.dirname,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await readyLine(child, /ready (\d+)/, endpoint.server);
    const baseUrl = `http://127.0.0.1:${port}`;
    const headers = (await endpoint.prepare?.(baseUrl, env)) ?? {};
    return { baseUrl, headers, child };
  } catch (error) {
    // A server whose preparation failed (ffmpeg missing, a refused upload) must not outlive the bench.
    await stop(child);
    throw error;
  }
}
