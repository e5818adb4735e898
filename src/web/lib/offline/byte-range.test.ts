import { describe, expect, it } from 'vitest';
import { parseRange, rangeResponse } from './byte-range.ts';

describe('parseRange', () => {
  it.each([
    ['bytes=0-', { start: 0, end: 99 }],
    ['bytes=10-19', { start: 10, end: 19 }],
    ['bytes=90-500', { start: 90, end: 99 }],
    ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=-500', { start: 0, end: 99 }],
    ['bytes=5-9, 20-30', { start: 5, end: 9 }],
  ])('%s of 100 bytes', (header, span) => {
    expect(parseRange(header, 100)).toEqual(span);
  });

  it.each(['bytes=100-', 'bytes=200-300', 'bytes=20-10', 'bytes=-0'])(
    '%s of 100 bytes is unsatisfiable',
    (header) => expect(parseRange(header, 100)).toBe('unsatisfiable'),
  );

  it.each([null, '', 'items=0-1', 'bytes=-', 'bytes=abc'])('%s asks the whole file', (header) =>
    expect(parseRange(header, 100)).toBeNull(),
  );
});

describe('rangeResponse', () => {
  const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);
  const file = () => new Response(bytes, { headers: { 'content-type': 'audio/webm' } });

  it('answers a span with 206, its bytes and Content-Range', async () => {
    const res = await rangeResponse('bytes=10-19', file());
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 10-19/100');
    expect(res.headers.get('content-length')).toBe('10');
    expect(res.headers.get('content-type')).toBe('audio/webm');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    ]);
  });

  it('answers a start past the end with 416 and the size', async () => {
    const res = await rangeResponse('bytes=100-', file());
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */100');
  });

  it('answers no Range with the whole file', async () => {
    const res = await rangeResponse(null, file());
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(100);
  });
});
