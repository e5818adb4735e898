/**
 * `npm run bench [-- name …]`: runs every bench/<name>.bench.ts (or the named ones) in turn
 * and prints one table. Each figure stands beside a baseline measured in the same run on the
 * same machine, as a ratio (≥ 1: at least as good as the baseline) — never a timed
 * assertion, because absolute numbers say more about the machine than about Canto.
 *
 * A bench module exports one async function named `<something>Bench({ log })` returning
 * BenchRow[] (bench-kit.ts). Each is bounded by BENCH_TIMEOUT_MIN (default 15) minutes; a
 * failure or timeout becomes an n/a row and the run goes on. All traffic is on 127.0.0.1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withTimeout, type BenchRow } from './bench-kit.ts';

type BenchFn = (options: { log?: (line: string) => void }) => Promise<BenchRow[]>;

// Cheap and self-contained first; the long ones (big tables, many rounds) last.
const ORDER = [
  'web',
  'share-page',
  'sign-in',
  'startup',
  'memory',
  'queue',
  'scrobble',
  'transcode',
  'uploads',
  'playback',
  'offline',
  'streaming',
  'catalogue',
  'listening',
  'notifications',
  'live-flood',
];

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const timeoutMs = Number(process.env.BENCH_TIMEOUT_MIN ?? 15) * 60_000;

function discover(wanted: string[]): string[] {
  const names = fs
    .readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.slice(0, -'.bench.ts'.length))
    .sort(
      (a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
    );
  // A group name runs every section it prefixes: `npm run bench -- ai` runs ai-generate, ai-recs…
  const grouped = (w: string) => names.filter((n) => n === w || n.startsWith(`${w}-`));
  wanted = wanted.flatMap((w) => (names.includes(w) ? [w] : grouped(w).length ? grouped(w) : [w]));
  const unknown = wanted.filter((w) => !names.includes(w));
  if (unknown.length) {
    console.error(`Unknown bench: ${unknown.join(', ')}. Available: ${names.join(', ')}`);
    process.exit(2);
  }
  return wanted.length ? names.filter((n) => wanted.includes(n)) : names;
}

const fmt = (n: number) =>
  Number.isNaN(n)
    ? 'n/a'
    : Math.abs(n) >= 100
      ? String(Math.round(n))
      : String(Math.round(n * 100) / 100);

function printTable(results: { bench: string; rows: BenchRow[] }[]) {
  const header = ['bench', 'figure', 'value', 'baseline', 'ratio', 'target'];
  const lines = results.flatMap(({ bench, rows }) =>
    rows.map((r) => [
      bench,
      r.name,
      `${fmt(r.value)}${r.unit && !Number.isNaN(r.value) ? ` ${r.unit}` : ''}`,
      Number.isNaN(r.baseline)
        ? 'n/a'
        : `${fmt(r.baseline)}${r.baselineName ? ` (${r.baselineName})` : ''}`,
      fmt(r.ratio),
      r.target ? `${r.target.text} ${r.target.met ? 'met' : 'NOT met'}` : '',
    ]),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}`);
  for (const l of lines) console.log(line(l));
  console.log(
    '\nratio ≥ 1: at least as good as the baseline measured in this run (value/baseline when higher is',
  );
  console.log('better, baseline/value when lower is better).');
}

async function main() {
  const names = discover(process.argv.slice(2));
  const results: { bench: string; rows: BenchRow[] }[] = [];
  for (const name of names) {
    console.log(`\n▶ ${name}`);
    const started = Date.now();
    try {
      const mod = (await import(
        pathToFileURL(path.join(benchDir, `${name}.bench.ts`)).href
      )) as Record<string, unknown>;
      const fn = Object.entries(mod).find(
        ([k, v]) => k.endsWith('Bench') && typeof v === 'function',
      )?.[1] as BenchFn | undefined;
      if (!fn) throw new Error('exports no <name>Bench function');
      const rows = await withTimeout(
        timeoutMs,
        `${name} bench`,
        fn({ log: (l) => console.log(l) }),
      );
      results.push({ bench: name, rows });
    } catch (error) {
      const message = (error as Error).message.split('\n')[0]!;
      console.log(`  failed: ${message}`);
      results.push({
        bench: name,
        rows: [{ name: `(n/a: ${message.slice(0, 90)})`, value: NaN, baseline: NaN, ratio: NaN }],
      });
    }
    console.log(`  (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  printTable(results);
}

await main();
// A bench that timed out may still hold handles; the table is printed, so leave.
process.exit(0);
