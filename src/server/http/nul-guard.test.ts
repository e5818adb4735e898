import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.ts';
import { assertNoNul, NUL_MESSAGE, nulPathOf } from './nul-guard.ts';

describe('NUL guard', () => {
  it('finds a NUL in a string, a nested value or a key, and says where', () => {
    expect(nulPathOf('a\0b')).toBe('');
    expect(nulPathOf({ genre: '\0' })).toBe('genre');
    expect(nulPathOf({ credential: { response: { clientDataJSON: 'x\0' } } })).toBe(
      'credential/response/clientDataJSON',
    );
    expect(nulPathOf({ list: ['ok', 'b\0'] })).toBe('list/1');
    expect(nulPathOf({ 'k\0': 1 })).toBe('k\0');
  });

  it('passes values without one, whatever their shape', () => {
    for (const value of [undefined, null, 0, true, '', 'plain', { a: [1, { b: 'c' }] }, []])
      expect(nulPathOf(value)).toBeNull();
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'end\0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPathOf(deep)).toMatch(/^(0\/)+0$/);
  });

  it('throws a 400 validation_failed naming the field and where it came from', () => {
    expect(() => assertNoNul({ title: 'ok' }, 'body')).not.toThrow();
    try {
      assertNoNul({ genre: 'a\0' }, 'querystring');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'validation_failed',
        message: NUL_MESSAGE,
        details: { field: 'genre', context: 'querystring' },
      });
    }
  });
});
