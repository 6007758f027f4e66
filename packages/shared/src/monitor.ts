import { z } from 'zod';

/** Sizes are human strings ("7.6 GiB"), the rate a percentage as text ("42.1"), as eladmin sends them. */
const usageSchema = z.object({
  total: z.string(),
  available: z.string(),
  used: z.string(),
  usageRate: z.string(),
});
export type Usage = z.infer<typeof usageSchema>;

/** `GET api/monitor`: the server, its process and its database, measured at `time` ('HH:mm:ss'). */
export const serverMonitorSchema = z.object({
  sys: z.object({
    os: z.string(),
    /** How long the machine has been up ("3d 4h 5m 6s"); the process's own uptime is under `process`. */
    day: z.string(),
    ip: z.string(),
  }),
  cpu: z.object({
    name: z.string(),
    /** Counts: physical packages, physical cores (twice: eladmin's `core` and `coreNumber`), logical CPUs. */
    package: z.number().int(),
    core: z.number().int(),
    coreNumber: z.number().int(),
    logic: z.number().int(),
    used: z.string(),
    idle: z.string(),
  }),
  memory: usageSchema,
  swap: usageSchema,
  disk: usageSchema,
  process: z.object({
    pid: z.number().int(),
    uptime: z.string(),
    rss: z.string(),
    heapUsed: z.string(),
    nodeVersion: z.string(),
  }),
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    version: z.string(),
    size: z.string(),
  }),
  time: z.string(),
});
export type ServerMonitor = z.infer<typeof serverMonitorSchema>;
