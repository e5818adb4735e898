import { describe, expect, it } from 'vitest';
import { StartFollower, StartPoints, type StartFollowing } from './play-starts.ts';

function follower() {
  const calls: string[] = [];
  const target: StartFollowing<string> = {
    begin: (item, position) => calls.push(`begin ${item} at ${position}`),
    finish: () => calls.push('finish'),
  };
  return { starts: new StartFollower(target), calls };
}

describe('StartFollower', () => {
  it('begins a start when it first plays, once, from where it stands', () => {
    const { starts, calls } = follower();
    starts.seen({ playId: 1, playing: false, current: 'a' }, () => 12);
    expect(calls).toEqual([]);
    starts.seen({ playId: 1, playing: true, current: 'a' }, () => 12);
    starts.seen({ playId: 1, playing: false, current: 'a' }, () => 20);
    starts.seen({ playId: 1, playing: true, current: 'a' }, () => 20);
    expect(calls).toEqual(['begin a at 12']);
  });

  it('finishes the start before as another start comes, even before it plays', () => {
    const { starts, calls } = follower();
    starts.seen({ playId: 1, playing: true, current: 'a' }, () => 0);
    starts.seen({ playId: 2, playing: false, current: 'b' }, () => 0);
    expect(calls).toEqual(['begin a at 0', 'finish']);
    starts.seen({ playId: 2, playing: true, current: 'b' }, () => 3);
    starts.seen({ playId: 3, playing: true, current: 'b' }, () => 0);
    expect(calls).toEqual(['begin a at 0', 'finish', 'begin b at 3', 'finish', 'begin b at 0']);
  });

  it('nothing begins without an item, and nothing finishes that never began', () => {
    const { starts, calls } = follower();
    starts.seen({ playId: 1, playing: true, current: null }, () => 0);
    starts.seen({ playId: 2, playing: false, current: 'a' }, () => 0);
    expect(calls).toEqual([]);
  });
});

describe('StartPoints', () => {
  it('a kept position is where its own start begins, no other', () => {
    const points = new StartPoints();
    expect(points.of(4)).toBe(0);
    points.keep(4, 93.5);
    expect(points.of(4)).toBe(93.5);
    expect(points.of(5)).toBe(0);
  });

  it("another item's start resumes where it was left; the same item again starts at 0", () => {
    const points = new StartPoints();
    points.showing({ id: 'ep' }, 1, () => 300);
    expect(points.of(1)).toBe(300);
    points.showing({ id: 'ep' }, 2, () => 300); // Previous after 3 s, a repeat
    expect(points.of(2)).toBe(0);
    points.showing({ id: 'other' }, 3, () => 0); // new, or played to the end
    expect(points.of(3)).toBe(0);
    points.showing(null, 3, () => 0);
    points.showing({ id: 'other' }, 4, () => 12); // shown again after nothing was
    expect(points.of(4)).toBe(12);
  });

  it('a start is decided once, and a kept position comes before the resume point', () => {
    const points = new StartPoints();
    points.keep(1, 40); // a restored item
    points.showing({ id: 'ep' }, 1, () => 300);
    expect(points.of(1)).toBe(40);
    points.showing({ id: 'ep2' }, 2, () => 10);
    points.showing({ id: 'ep2' }, 2, () => 99); // a re-render of the same start
    expect(points.of(2)).toBe(10);
  });
});
