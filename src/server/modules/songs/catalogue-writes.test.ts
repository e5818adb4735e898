import { describe, expect, it } from 'vitest';
import { catalogueWrites } from './catalogue-writes.ts';

describe('catalogueWrites', () => {
  it('tells every listener before each write starts and once it has ended, however it ends', async () => {
    const heard: string[] = [];
    const writes = catalogueWrites();
    writes.listen(() => heard.push('search'));
    writes.listen(() => heard.push('other'));
    const { update, fail } = writes.announcing({
      async update(id: string, title: string) {
        heard.push(`update ${id} ${title}`);
        return { id, title };
      },
      async fail() {
        heard.push('fail');
        throw new Error('constraint');
      },
    });
    expect(await update('1', 'New')).toEqual({ id: '1', title: 'New' });
    expect(heard).toEqual(['search', 'other', 'update 1 New', 'search', 'other']);
    heard.length = 0;
    await expect(fail()).rejects.toThrow('constraint');
    expect(heard).toEqual(['search', 'other', 'fail', 'search', 'other']);
  });
});
