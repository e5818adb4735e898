import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.ts';
import { isWellFormed } from '../../core/validation/text.check.ts';
import { assertCleanText, MALFORMED_MESSAGE, NUL_MESSAGE, textFaultOf } from './text-guard.ts';

const at = (value: unknown) => textFaultOf(value)?.at ?? null;

describe('text guard', () => {
  it('finds a NUL in a string, a nested value or a key, and says where', () => {
    expect(textFaultOf('a\0b')).toEqual({ at: '', message: NUL_MESSAGE });
    expect(at({ genre: '\0' })).toBe('genre');
    expect(at({ credential: { response: { clientDataJSON: 'x\0' } } })).toBe(
      'credential/response/clientDataJSON',
    );
    expect(at({ list: ['ok', 'b\0'] })).toBe('list/1');
    expect(at({ 'k\0': 1 })).toBe('k\0');
  });

  it('finds a lone surrogate, high or low, in a value or a key, and says where', () => {
    expect(textFaultOf({ issuer: '\uD800' })).toEqual({ at: 'issuer', message: MALFORMED_MESSAGE });
    expect(at({ issuer: 'Canto\uDBFF' })).toBe('issuer');
    expect(at({ title: '\uDC00 low first' })).toBe('title');
    expect(at({ title: 'reversed \uDC00\uD800 pair' })).toBe('title');
    expect(at({ list: [{ name: 'x\uDFFFy' }] })).toBe('list/0/name');
    expect(at({ 'k\uD83D': 1 })).toBe('k\uD83D');
  });

  it('passes values without one, whatever their shape, surrogate pairs included', () => {
    for (const value of [
      undefined,
      null,
      0,
      true,
      '',
      'plain',
      'émoji 🎵 and 𝄞 (surrogate pairs)',
      { a: [1, { b: 'c' }] },
      [],
    ])
      expect(textFaultOf(value)).toBeNull();
  });

  it('agrees with String.prototype.isWellFormed', () => {
    const samples = ['', 'a', '🎵', '\uD83C\uDFB5', '\uD83C', '\uDFB5', 'a\uD83Cb', '\uDFB5\uD83C'];
    for (const s of samples) {
      const native = (s as unknown as { isWellFormed(): boolean }).isWellFormed();
      expect(isWellFormed(s), JSON.stringify(s)).toBe(native);
    }
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'end\0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(at(deep)).toMatch(/^(0\/)+0$/);
  });

  it('throws a 400 validation_failed naming the field and where it came from', () => {
    expect(() => assertCleanText({ title: 'ok 🎵' }, 'body')).not.toThrow();
    for (const [value, message] of [
      [{ genre: 'a\0' }, NUL_MESSAGE],
      [{ genre: 'a\uD800' }, MALFORMED_MESSAGE],
    ] as const) {
      try {
        assertCleanText(value, 'querystring');
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({
          code: 'validation_failed',
          message,
          details: { field: 'genre', context: 'querystring' },
        });
      }
    }
  });
});
