import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminAdDto } from '../../src/contracts/ads.contract.ts';
import { adMessages } from '../../src/core/validation/ad.rules.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { dbKinds } from '../helpers/test-db.ts';
import {
  adCount,
  adParts,
  createAd,
  listAds,
  makeAdmin,
  nextAd,
  postImpression,
  seeAd,
  sendAd,
  setActive,
  showingRows,
  subscribe,
} from './ads-helpers.ts';
import { makePng, makeUser, makeWav, rows, storedFiles, type TestUser } from './songs-helpers.ts';

/*
 * Ads (docs/decisions/0023): the admin ad inventory (create, edit, deactivate, every refusal
 * writing nothing), showings (rotation, subscribers refused) and the admin's impression counts.
 * What an impression is worth (each refusal, the frequency cap, attribution):
 * ad-impressions.test.ts. Ad audio through the media job: ads-media.test.ts.
 */

const errorOf = (res: { json<T>(): T }) =>
  res.json<{ error: { code: string; message: string; details?: Record<string, unknown> } }>().error;

describe.each(dbKinds)('ads on %s', (kind) => {
  // No frequency cap here: these tests hand one listener many showings in a row. The cap and
  // every refusal of an impression: ad-impressions.test.ts.
  const ctx = useTestApp(kind, { AD_SHOWING_INTERVAL_SECONDS: '0' });
  let admin: TestUser;
  let listener: TestUser;
  let artist: TestUser;
  let png: Buffer;

  beforeAll(async () => {
    admin = await makeAdmin(ctx);
    listener = await makeUser(ctx, 'listener', 'Ad Listener');
    artist = await makeUser(ctx, 'artist', 'Ad Artist');
    png = await makePng(400, 300);
  });

  /** Every ad inactive, so a test's own ads are the only ones in rotation. */
  async function deactivateAll() {
    for (const ad of await listAds(ctx, admin))
      if (ad.active) await setActive(ctx, admin, ad.id, false);
  }

  it('refuses the inventory API to non-admins (403) and to nobody (401), writing nothing', async () => {
    const ad = await createAd(ctx, admin, { title: 'Guarded' });
    const before = storedFiles(ctx.env.dataDir);
    for (const user of [listener, artist, null]) {
      const status = user ? 403 : 401;
      const list = await ctx.app.inject({ url: '/api/admin/ads', headers: user?.headers ?? {} });
      expect(list.statusCode).toBe(status);
      const create = await sendAd(ctx, user, adParts({ title: 'Mine' }, { image: png }));
      expect(create.statusCode).toBe(status);
      const edit = await sendAd(ctx, user, adParts({ title: 'Taken' }), ad.id);
      expect(edit.statusCode).toBe(status);
      const off = await ctx.app.inject({
        method: 'PUT',
        url: `/api/admin/ads/${ad.id}/active`,
        headers: user?.headers ?? {},
        payload: { active: false },
      });
      expect(off.statusCode).toBe(status);
    }
    expect(await adCount(ctx)).toBe(1);
    expect((await listAds(ctx, admin))[0]).toMatchObject({ title: 'Guarded', active: true });
    expect(storedFiles(ctx.env.dataDir)).toEqual(before);
  });

  it('creates an ad with a re-encoded image in the cover-art bucket; duration given, else 30', async () => {
    const ad = await createAd(
      ctx,
      admin,
      {
        title: '  Spring Sale  ',
        description: 'Everything must go',
        target_url: 'https://shop.example/sale?x=1',
        duration: '45',
      },
      { image: png },
    );
    expect(ad).toMatchObject({
      title: 'Spring Sale',
      description: 'Everything must go',
      target_url: 'https://shop.example/sale?x=1',
      duration: 45,
      active: true,
      status: 'ready',
      audio_url: null,
      renditions: [],
      loudness: null,
    });
    expect(ad.image_url).toMatch(/^\/media\/cover-art\/[0-9a-f-]{36}\.webp$/);
    const image = await ctx.app.inject({ url: ad.image_url! });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');

    const plain = await createAd(ctx, admin, { title: 'Plain' });
    expect(plain).toMatchObject({ duration: 30, image_url: null, description: null });
    expect((await listAds(ctx, admin)).map((a) => a.title).slice(0, 2)).toEqual([
      'Plain',
      'Spring Sale',
    ]);
  });

  it('refuses every bad field and file with its message, storing nothing', async () => {
    const ads = await adCount(ctx);
    const files = storedFiles(ctx.env.dataDir);
    const cases: Array<[string, ReturnType<typeof adParts>, number, string]> = [
      ['no title', adParts({ description: 'x' }), 400, adMessages.titleRequired],
      ['a blank title', adParts({ title: '   ' }), 400, adMessages.titleRequired],
      ['201 characters', adParts({ title: 'x'.repeat(201) }), 400, adMessages.titleTooLong],
      [
        'a long description',
        adParts({ title: 'T', description: 'd'.repeat(501) }),
        400,
        adMessages.descriptionTooLong,
      ],
      [
        'a javascript: URL',
        adParts({ title: 'T', target_url: 'javascript:alert(1)' }),
        400,
        adMessages.targetUrl,
      ],
      [
        'an ftp URL',
        adParts({ title: 'T', target_url: 'ftp://x.example/' }),
        400,
        adMessages.targetUrl,
      ],
      [
        'a URL with a password',
        adParts({ title: 'T', target_url: 'https://bank.example:pw@evil.example/' }),
        400,
        adMessages.targetUrl,
      ],
      [
        'not a URL',
        adParts({ title: 'T', target_url: 'shop dot example' }),
        400,
        adMessages.targetUrl,
      ],
      ['duration 0', adParts({ title: 'T', duration: '0' }), 400, adMessages.duration],
      ['duration 1.5', adParts({ title: 'T', duration: '1.5' }), 400, adMessages.duration],
      ['duration 601', adParts({ title: 'T', duration: '601' }), 400, adMessages.duration],
      ['an unknown field', adParts({ title: 'T', active: 'false' }), 400, 'Unknown field "active"'],
      [
        'an image that is text',
        adParts({ title: 'T' }, { image: Buffer.from('<html>not a png</html>') }),
        415,
        adMessages.imageInvalid,
      ],
      [
        'an image over 5 MB',
        adParts({ title: 'T' }, { image: Buffer.alloc(5 * 1024 * 1024 + 1, 7) }),
        413,
        adMessages.imageTooLarge,
      ],
      [
        'audio declared as text',
        adParts({ title: 'T' }, { audio: makeWav(1), audioType: 'text/plain' }),
        415,
        adMessages.audioType,
      ],
      [
        'audio that is not audio',
        adParts({ title: 'T' }, { image: png, audio: Buffer.alloc(4096, 1) }),
        415,
        adMessages.audioType,
      ],
      [
        'a valid form with a stray file',
        [
          ...adParts({ title: 'T' }, { image: png, audio: makeWav(1) }),
          { name: 'extra', filename: 'x.bin', data: Buffer.from('x') },
        ],
        400,
        'Unexpected file field "extra"',
      ],
    ];
    for (const [what, parts, status, message] of cases) {
      const res = await sendAd(ctx, admin, parts);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expect(errorOf(res).message, what).toBe(message);
    }
    expect(await adCount(ctx)).toBe(ads);
    expect(storedFiles(ctx.env.dataDir)).toEqual(files);
  });

  it('edits an ad: fields, a new image replacing the old file, removal; refusals change nothing', async () => {
    const ad = await createAd(
      ctx,
      admin,
      { title: 'Editable', description: 'Old words', target_url: 'http://old.example/' },
      { image: png },
    );
    const oldImage = ad.image_url!.slice('/media/'.length);
    const other = await makePng(200, 200);
    const res = await sendAd(
      ctx,
      admin,
      adParts({ title: 'Edited', description: '', duration: '12' }, { image: other }),
      ad.id,
    );
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json<AdminAdDto>();
    expect(edited).toMatchObject({
      id: ad.id,
      title: 'Edited',
      description: null,
      target_url: 'http://old.example/',
      duration: 12,
    });
    expect(edited.updated_at).not.toBeNull();
    expect(edited.image_url).not.toBe(ad.image_url);
    const files = storedFiles(ctx.env.dataDir).map((f) => f.split('\\').join('/'));
    expect(files).not.toContain(`media/${oldImage}`);
    expect(files).toContain(`media/${edited.image_url!.slice('/media/'.length)}`);

    const before = storedFiles(ctx.env.dataDir);
    const refused: Array<[ReturnType<typeof adParts>, number, string]> = [
      [adParts({ title: '' }), 400, adMessages.titleRequired],
      [adParts({ target_url: 'mailto:a@b.example' }), 400, adMessages.targetUrl],
      [adParts({ remove_image: 'true' }, { image: png }), 400, adMessages.replaceOrRemove],
      [adParts({ remove_audio: 'yes' }), 400, 'Invalid input: expected "true"'],
    ];
    for (const [parts, status, message] of refused) {
      const r = await sendAd(ctx, admin, parts, ad.id);
      expect(r.statusCode, r.body).toBe(status);
      expect(errorOf(r).message).toBe(message);
    }
    expect(storedFiles(ctx.env.dataDir)).toEqual(before);
    const missing = await sendAd(ctx, admin, adParts({ title: 'Ghost' }), crypto.randomUUID());
    expect(missing.statusCode).toBe(404);
    expect((await listAds(ctx, admin)).find((a) => a.id === ad.id)).toMatchObject({
      title: 'Edited',
      image_url: edited.image_url,
    });

    const removed = await sendAd(
      ctx,
      admin,
      adParts({ remove_image: 'true', target_url: '' }),
      ad.id,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<AdminAdDto>()).toMatchObject({ image_url: null, target_url: null });
    expect(storedFiles(ctx.env.dataDir).map((f) => f.split('\\').join('/'))).not.toContain(
      `media/${edited.image_url!.slice('/media/'.length)}`,
    );
  });

  it('rotates among active ads, least recently shown first; a deactivated ad is never handed out', async () => {
    await deactivateAll();
    expect(await nextAd(ctx, listener)).toBeNull();
    const a = await createAd(ctx, admin, { title: 'Rotation A' });
    const b = await createAd(ctx, admin, { title: 'Rotation B' });
    const c = await createAd(ctx, admin, { title: 'Rotation C' });

    /** Hands out the next ad and records its impression once its duration is over. */
    const show = async (user: TestUser): Promise<string> => (await seeAd(ctx, user)).title;

    // The rotation follows impressions: until one is recorded, the same ad is next.
    const first = (await nextAd(ctx, listener))!;
    const again = (await nextAd(ctx, listener))!;
    expect([first.title, again.title]).toEqual(['Rotation A', 'Rotation A']);
    expect(again.showing_id).not.toBe(first.showing_id);

    const other = await makeUser(ctx, 'listener', 'Second Listener');
    expect([
      await show(listener),
      await show(other),
      await show(listener),
      await show(other),
    ]).toEqual(['Rotation A', 'Rotation B', 'Rotation C', 'Rotation A']);

    await setActive(ctx, admin, b.id, false);
    expect([await show(listener), await show(listener)]).toEqual(['Rotation C', 'Rotation A']);
    await setActive(ctx, admin, b.id, true);
    // B's last showing is older than C's and A's.
    expect(await show(listener)).toBe('Rotation B');
    for (const ad of [a, b, c]) await setActive(ctx, admin, ad.id, false);
    expect(await nextAd(ctx, listener)).toBeNull();
  });

  it('never hands a subscriber an ad (403)', async () => {
    await createAd(ctx, admin, { title: 'For free listeners' });
    const subscriber = await makeUser(ctx, 'listener', 'Subscriber');
    expect((await nextAd(ctx, subscriber))?.title).toBe('For free listeners');
    await subscribe(ctx, subscriber.userId);
    const before = (await showingRows(ctx)).length;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/ads/showings',
      headers: subscriber.headers,
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({
      code: 'permission_denied',
      message: adMessages.subscriberNoAds,
    });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/ads/showings' })).statusCode).toBe(
      401,
    );
    expect(await showingRows(ctx)).toHaveLength(before);
  });

  // Last: it moves the clock past every session made before it.
  it("counts each ad's impressions in the admin list, all time and in the last 30 days by the app's clock", async () => {
    const DAY = 24 * 3600_000;
    await deactivateAll();
    const counted = await createAd(ctx, admin, { title: 'Counted per ad' });
    const other = await createAd(ctx, admin, { title: 'Counted apart' });
    await setActive(ctx, admin, other.id, false);

    /** [impressions, impressions_30d] of every ad, as `who` lists them. */
    const countsAs = async (who: TestUser) =>
      new Map(
        (await listAds(ctx, who)).map((a) => [a.id, [a.impressions, a.impressions_30d]] as const),
      );
    /** Hands `user` the next ad and records its impression (one showing, one impression). */
    async function show(user: TestUser, expected: string) {
      const ad = await seeAd(ctx, user);
      expect(ad.id).toBe(expected);
      return ad;
    }

    let counts = await countsAs(admin);
    expect(counts.get(counted.id)).toEqual([0, 0]);
    expect(counts.get(other.id)).toEqual([0, 0]);

    const N = 3;
    let last = null as Awaited<ReturnType<typeof show>> | null;
    for (let i = 0; i < N; i++) last = await show(listener, counted.id);
    // A replay records nothing, so it counts nothing.
    const replay = await postImpression(ctx, listener, { showing_id: last!.showing_id });
    expect(replay.json()).toMatchObject({ recorded: false });
    await setActive(ctx, admin, other.id, true);
    await show(listener, other.id); // never shown: first in rotation
    await setActive(ctx, admin, other.id, false);

    counts = await countsAs(admin);
    expect(counts.get(counted.id)).toEqual([N, N]);
    expect(counts.get(other.id)).toEqual([1, 1]);
    // Every ad's total is its rows in ad_impressions, ads of earlier tests too.
    const truth = await rows<{ ad_id: string; n: number }>(
      ctx,
      sql`select ad_id, count(*)::int as n from ad_impressions group by ad_id`,
    );
    for (const [id, [total]] of counts)
      expect(total, id).toBe(truth.find((t) => t.ad_id === id)?.n ?? 0);

    // 29 days on they are still recent; 31 days on only the total keeps them. Each step
    // signs in again: the clock has ended the earlier sessions.
    ctx.clock.advance(29 * DAY);
    counts = await countsAs(await makeAdmin(ctx, 'Admin 29 days on'));
    expect(counts.get(counted.id)).toEqual([N, N]);
    expect(counts.get(other.id)).toEqual([1, 1]);
    ctx.clock.advance(2 * DAY);
    const laterAdmin = await makeAdmin(ctx, 'Admin 31 days on');
    counts = await countsAs(laterAdmin);
    expect(counts.get(counted.id)).toEqual([N, 0]);
    expect(counts.get(other.id)).toEqual([1, 0]);

    // A new impression counts in both; the other ad's counts do not move.
    const laterListener = await makeUser(ctx, 'listener', 'Listener 31 days on');
    await show(laterListener, counted.id);
    counts = await countsAs(laterAdmin);
    expect(counts.get(counted.id)).toEqual([N + 1, 1]);
    expect(counts.get(other.id)).toEqual([1, 0]);

    // Still admins only.
    const refused = await ctx.app.inject({ url: '/api/admin/ads', headers: laterListener.headers });
    expect(refused.statusCode).toBe(403);
    expect((await ctx.app.inject({ url: '/api/admin/ads' })).statusCode).toBe(401);
  });
});
