// autocannon ships no types; only what the benches use.
declare module 'autocannon' {
  type Options = {
    url: string;
    connections?: number;
    /** Worker threads; connections are divided among them. */
    workers?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Requests sent in turn on each connection. */
    requests?: Array<{ method?: string; path?: string; headers?: Record<string, string> }>;
  };
  type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p99: number;
  };
  type Result = {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
