import { describe, expect, it } from 'vitest';
import { namesKind, namesOtherKind } from './file-kind.ts';

const file = (type: string) => ({ type, size: 1 });

describe('what a chosen file says it is', () => {
  it('names its kind by the type’s top level', () => {
    expect(namesKind(file('audio/mpeg'), 'audio')).toBe(true);
    expect(namesKind(file('image/webp'), 'image')).toBe(true);
    expect(namesKind(file('video/mp4'), 'audio')).toBe(false);
    expect(namesKind(file('audiox/evil'), 'audio')).toBe(false);
  });

  it('an unnamed type is not the kind, and not another kind either', () => {
    expect(namesKind(file(''), 'audio')).toBe(false);
    expect(namesOtherKind(file(''), 'audio')).toBe(false);
  });

  it('another named type is another kind', () => {
    expect(namesOtherKind(file('application/pdf'), 'audio')).toBe(true);
    expect(namesOtherKind(file('audio/wav'), 'image')).toBe(true);
    expect(namesOtherKind(file('image/png'), 'image')).toBe(false);
  });
});
