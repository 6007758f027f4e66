export type Endpoint = {
  /** A script under bench/ that listens on a free port and prints `ready <port>`. */
  server: string;
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Runs once the server is up, before any load: log in, create data; returns request headers. */
  /** `env`: what the server was started with beyond the bench's own (DATA_DIR when the data is shared). */
  prepare?: (baseUrl: string, env: Record<string, string>) => Promise<Record<string, string>>;
  body?: string;
};

/**
 * One throughput benchmark: the product's endpoint against a reference answered in the same
 * run, in short rounds that alternate between the two. The verdict is on the server's CPU time
 * per request (read from /proc), which a busy machine disturbs far less than requests per second.
 */
export type ThroughputScenario = {
  kind: 'throughput';
  name: string;
  /** The lowest acceptable reference ÷ subject CPU time per request (subject ÷ reference req/s without /proc). */
  target: number;
  subject: Endpoint;
  reference: Endpoint;
  /**
   * Both servers work on one data folder (DATA_DIR), and the reference is called with the
   * headers the subject's prepare() returned (its session token, say).
   */
  shareData?: boolean;
  /** Before measuring, check that both sides give the same answer: the status, and the JSON (or the bytes). */
  sameAnswer?: boolean;
};

/** A process to start cold: `node <script>`, nothing in between, done once it prints `ready`. */
export type Launch = {
  /** Relative to bench/. */
  script: string;
  env?: Record<string, string>;
  /** The line the process prints once it listens, with the port as the first group. */
  ready: RegExp;
};

/**
 * Time from spawning a process to its listening, the product against a reference started
 * in alternation with it. The ratio is reference ÷ subject time, so higher is better like the others.
 */
export type ColdStartScenario = {
  kind: 'cold-start';
  name: string;
  /** The lowest acceptable reference ÷ subject time to listening. */
  target: number;
  /** The most milliseconds the subject may take, quoted beside the ratio. */
  goalMs: number;
  /** Runs once before the rounds, with the data folder both sides get as DATA_DIR. */
  /** `start` runs a launch to listening, then, when `until` is given, keeps it running until that holds (at most 30 s). */
  prepare?: (dataDir: string, start: (launch: Launch, until?: () => boolean) => Promise<void>) => Promise<void>;
  subject: Launch;
  reference: Launch;
};

/** The run's options, for scenarios that measure in their own way. */
export type RunOptions = { rounds: number; seconds: number; connections: number };

/** What such a scenario reports: one row of the table, and whether its target is met. */
export type Report = {
  subject: string;
  reference: string;
  /** A second figure beside the ratio (a latency, say). */
  detail: string;
  ratio: string;
  target: string;
  met: boolean;
};

/**
 * A scenario that drives its own load and judges it (latency at a fixed arrival rate, the most
 * simulated users held, the time of one operation), still against a reference or a target the
 * design sets, and still with the server on core 0 and the load on core 1 (bench-process.ts).
 */
export type MeasuredScenario = {
  kind: 'measured';
  name: string;
  /**
   * Run only when `--only` names it (a scenario of many minutes, or needing services a plain run
   * does not: nginx, PostgreSQL); a plain `npm run bench` lists it as left out.
   */
  optIn?: boolean;
  run: (options: RunOptions) => Promise<Report>;
};

export type Scenario = ThroughputScenario | ColdStartScenario | MeasuredScenario;
