import { openPostgres } from '../src/server/db/client.ts';
import { createSubsonicBrowseRepository } from '../src/server/modules/subsonic/subsonic-browse.repository.ts';
import { createBrowseMethods } from '../src/server/modules/subsonic/subsonic-browse.ts';
import { envelope, toJson } from '../src/server/modules/subsonic/subsonic-envelope.ts';
const d = await openPostgres('postgres://postgres@127.0.0.1:5432/canto_bench_ssperf', 4);
const browse = createSubsonicBrowseRepository(d.db);
const m = createBrowseMethods({ browse });
const uid = '00000000-0000-0000-0000-000000000000';
const p = (q: Record<string,string>) => { const s = new URLSearchParams(q); return { get: (n: string) => s.get(n) ?? undefined, all: (n: string) => s.getAll(n) }; };
const caller = { userId: uid, username: 'x', roles: [] as string[] };
for (let i = 0; i < 5; i++) {
  let t = performance.now();
  const rows = await browse.artists(uid);
  const sqlMs = performance.now() - t;
  t = performance.now();
  const r = await m.getArtists!(caller as never, p({}));
  const all = performance.now() - t;
  t = performance.now();
  const j = toJson(envelope({ status: 'ok', serverVersion: '1' }, r as never));
  const js = performance.now() - t;
  t = performance.now();
  JSON.stringify(r);
  const plain = performance.now() - t;
  console.log(`artists sql ${sqlMs.toFixed(1)} method ${all.toFixed(1)} toJson ${js.toFixed(1)} plain ${plain.toFixed(1)} bytes ${j.length} rows ${rows.length}`);
}
for (const type of ['newest','alphabeticalByName','byYear','frequent']) {
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    const r = await m.getAlbumList2!(caller as never, p({ type, size: '500', offset: '20000', fromYear: '2023', toYear: '2025' }));
    const a = performance.now() - t; t = performance.now();
    const j = toJson(envelope({ status: 'ok', serverVersion: '1' }, r as never));
    console.log(type, a.toFixed(1), (performance.now() - t).toFixed(1), j.length);
  }
}
for (const off of [0, 500000, 999500]) {
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    const r = await m.search3!(caller as never, p({ query: '', songCount: '500', songOffset: String(off), artistCount: '0', albumCount: '0' }));
    const a = performance.now() - t; t = performance.now();
    const j = toJson(envelope({ status: 'ok', serverVersion: '1' }, r as never));
    console.log('search3', off, a.toFixed(1), (performance.now() - t).toFixed(1), j.length);
  }
}
await d.close();
