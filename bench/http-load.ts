/**
 * One HTTP load run against a URL for the byte-serving benches (streaming, subsonic-stream):
 * wrk when it is installed (a C client, so the client is not what is measured), else
 * autocannon with worker threads. A run may rotate through Range headers, as a player's
 * seeks do. Any connection error or non-2xx answer fails the run rather than flattering it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export type LoadClient = 'wrk' | 'autocannon';
export type LoadResult = {
  reqPerSec: number;
  bytesPerSec: number;
  p50Ms: number;
  requests: number;
};
export type LoadOptions = {
  client: LoadClient;
  connections: number;
  seconds: number;
  /** Range header values to rotate through, one per request; none: plain GETs. */
  ranges?: readonly string[];
};

/** wrk, unless it is missing or BENCH_CLIENT=autocannon asks for the other. */
export function loadClient(): LoadClient {
  if (process.env.BENCH_CLIENT === 'autocannon') return 'autocannon';
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined
    ? 'wrk'
    : 'autocannon';
}

export function httpLoad(url: string, options: LoadOptions): Promise<LoadResult> {
  return options.client === 'wrk' ? wrk(url, options) : cannon(url, options);
}

// The script rotates through its ranges when given any and reports one parseable line.
const wrkScript = (ranges: readonly string[]) => `
ranges = {${ranges.map((r) => `"${r}"`).join(',')}}
counter = 0
request = function()
  if #ranges == 0 then return wrk.format() end
  counter = counter + 1
  return wrk.format(nil, nil, { Range = ranges[(counter % #ranges) + 1] })
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("CANTO %d %d %d %d %d\\n", summary.requests, summary.bytes,
    summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50)))
end
`;
/** Script files by their ranges: written once per process. */
const scripts = new Map<string, string>();

function scriptFor(ranges: readonly string[]): string {
  const key = ranges.join('\n');
  let file = scripts.get(key);
  if (!file) {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'canto-wrk-')), 'report.lua');
    fs.writeFileSync(file, wrkScript(ranges));
    scripts.set(key, file);
  }
  return file;
}

async function wrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const script = scriptFor(options.ranges ?? []);
  const args = ['-t2', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s'];
  args.push('-s', script, url);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  const m = /CANTO (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(out);
  if (!m) throw new Error(`wrk gave no report:\n${out}`);
  const [requests, bytes, micros, errors, p50] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (errors > 0) throw new Error(`wrk: ${errors} errors for ${url}\n${out}`);
  const seconds = micros / 1e6;
  return {
    reqPerSec: requests / seconds,
    bytesPerSec: bytes / seconds,
    p50Ms: p50 / 1000,
    requests,
  };
}

async function cannon(url: string, options: LoadOptions): Promise<LoadResult> {
  // Worker threads, so the client is not one event loop capped near 30-40k req/s.
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    workers: 2,
    requests: options.ranges?.length
      ? options.ranges.map((range) => ({ headers: { range } }))
      : [{}],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors for ${url}`);
  return {
    reqPerSec: result.requests.average,
    bytesPerSec: result.throughput.average,
    p50Ms: result.latency.p50,
    requests: result.requests.average * options.seconds,
  };
}
