import { describe, expect, it } from 'vitest';
import { rowIds } from './queue-list.tsx';

describe('queue row ids', () => {
  it('are unique when the same song is queued twice', () => {
    const ids = rowIds([{ id: 'a' }, { id: 'b' }, { id: 'a' }]);
    expect(ids).toEqual(['a#0', 'b#0', 'a#1']);
    expect(new Set(ids).size).toBe(3);
  });

  it('follow a moved song, so focus can return to its handle', () => {
    // b moves from second to first: it keeps its id, the others keep theirs.
    expect(rowIds([{ id: 'b' }, { id: 'a' }, { id: 'c' }])).toEqual(['b#0', 'a#0', 'c#0']);
  });

  it('are empty for an empty queue', () => {
    expect(rowIds([])).toEqual([]);
  });
});
