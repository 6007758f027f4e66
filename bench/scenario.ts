export type Endpoint = {
  /** A script under bench/ that listens on a free port and prints `ready <port>`. */
  server: string;
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Runs once the server is up, before any load: log in, create data; returns request headers. */
  prepare?: (baseUrl: string) => Promise<Record<string, string>>;
  body?: string;
};

/** One benchmark: the product's endpoint against a reference answered in the same run. */
export type Scenario = {
  name: string;
  /** The lowest acceptable subject ÷ reference throughput ratio. */
  target: number;
  subject: Endpoint;
  reference: Endpoint;
  /**
   * Both servers work on one data folder (DATA_DIR), and the reference is called with the
   * headers the subject's prepare() returned (its session token, say).
   */
  shareData?: boolean;
  /** Before measuring, check that both sides give the same JSON answer. */
  sameAnswer?: boolean;
};
