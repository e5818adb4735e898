import { describe, expect, it } from 'vitest';
import { queueButtonName } from './queue-button-name.ts';

describe("the Queue button's name", () => {
  it('carries the count the badge draws', () => {
    expect(queueButtonName(0)).toBe('Queue');
    expect(queueButtonName(1)).toBe('Queue, 1 item');
    expect(queueButtonName(3)).toBe('Queue, 3 items');
    expect(queueButtonName(120)).toBe('Queue, 120 items');
  });
});
