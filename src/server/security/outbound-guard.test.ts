import { describe, expect, it } from 'vitest';
import { guardedLookup, isPublicAddress, isPublicHttpsUrl } from './outbound-guard.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'fe80::1',
    'fd00::1',
    'fc12:3456::1',
    'ff02::1',
    'not an address',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('isPublicHttpsUrl', () => {
  it.each([
    'https://127.0.0.1/a.m4a',
    'https://2130706433/a.m4a', // 127.0.0.1 written as one number
    'https://0x7f.1/a.m4a',
    'https://[::1]/a.m4a',
    'https://[::ffff:192.168.0.1]/a.m4a',
    'https://10.0.0.8/a.m4a',
    'https://169.254.169.254/latest/meta-data',
    'https://localhost/a.m4a',
    'https://LOCALHOST./a.m4a',
    'https://music.localhost/a.m4a',
    'http://audio.example.com/a.m4a',
    'javascript:alert(1)',
    'data:audio/mp4;base64,AAAA',
    'not a url',
  ])('drops %s', (url) => {
    expect(isPublicHttpsUrl(url)).toBe(false);
  });

  it.each([
    'https://audio.example.com/1.m4a',
    'https://93.184.216.34/a.jpg',
    'https://[2606:4700::1111]/x',
  ])('keeps %s', (url) => {
    expect(isPublicHttpsUrl(url)).toBe(true);
  });
});

describe('guardedLookup', () => {
  const lookupWith = (answer: string[], allowPrivate = false) => {
    const lookup = guardedLookup({
      allowPrivate,
      resolve: async () =>
        answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    });
    return (all: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        lookup('catalogue.test', { all }, (err, address) => resolve({ err, address })),
      );
  };

  it('passes public answers through, in the shape net asks for', async () => {
    const lookup = lookupWith(['93.184.216.34', '2606:4700::1111']);
    expect(await lookup(false)).toEqual({ err: null, address: '93.184.216.34' });
    expect((await lookup(true)).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
  });

  it('refuses a name with any private answer (rebinding mixes them)', async () => {
    for (const answer of [['127.0.0.1'], ['93.184.216.34', '10.0.0.1'], ['fe80::1']]) {
      const { err } = await lookupWith(answer)(true);
      expect(err?.code).toBe('ERR_OUTBOUND_REFUSED');
    }
  });

  it('lets private answers through only when allowed', async () => {
    expect(await lookupWith(['127.0.0.1'], true)(false)).toEqual({
      err: null,
      address: '127.0.0.1',
    });
  });
});
