import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/test-db.ts';
import { useTestApp } from '../helpers/test-app.ts';
import { signUp } from './auth-helpers.ts';
import {
  makeUser,
  makeWav,
  multipart,
  rows,
  storedFiles,
  type Part,
  type TestUser,
} from './songs-helpers.ts';

// docs/decisions/0006, "Bad bytes": NUL in any text field is a 400 (never PostgreSQL's 500);
// direction controls are stripped and titles or names that show nothing are refused — for uploads,
// edits, sign-up and the search genre, on both databases.

const NUL = 'Text must not contain NUL characters';
const RLO = '\u202E'; // RIGHT-TO-LEFT OVERRIDE
const PDF = '\u202C'; // POP DIRECTIONAL FORMATTING
const ZWSP = '\u200B'; // ZERO WIDTH SPACE

describe.each(dbKinds)('text fields are clean on %s', (kind) => {
  const ctx = useTestApp(kind);
  let artist: TestUser;
  let listener: TestUser;
  let wav: Buffer;

  beforeAll(async () => {
    artist = await makeUser(ctx, 'artist', 'Clean Text Artist');
    listener = await makeUser(ctx, 'listener', 'Clean Text Listener');
    wav = makeWav(1);
  });

  const count = async (table: 'songs' | 'users' | 'profiles') =>
    Number(
      (await rows<{ n: number }>(ctx, sql`select count(*)::int as n from ${sql.raw(table)}`))[0]!.n,
    );
  const upload = (parts: Part[]) => {
    const { headers, payload } = multipart(parts);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/songs',
      headers: { ...headers, ...artist.headers },
      payload,
    });
  };
  const file = (filename = 'take.wav'): Part => ({
    name: 'file',
    filename,
    contentType: 'audio/wav',
    data: wav,
  });
  const edit = (id: string, body: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/api/songs/${id}`,
      headers: artist.headers,
      payload: body,
    });
  const songRow = async (id: string) =>
    (
      await rows<{ title: string; genre: string | null }>(
        ctx,
        sql`select title, genre from songs where id = ${id}`,
      )
    )[0]!;

  /** `res` is a 400 with `message`, and no song row or stored file appeared. */
  async function expectUploadRefused(parts: Part[], message: string, field: string) {
    const before = { songs: await count('songs'), files: storedFiles(ctx.env.dataDir) };
    const res = await upload(parts);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
    expect(res.json().error.details?.field).toBe(field);
    expect(await count('songs')).toBe(before.songs);
    expect(storedFiles(ctx.env.dataDir)).toEqual(before.files);
  }

  describe('upload', () => {
    it('refuses NUL in the title or the genre with 400, storing nothing', async () => {
      await expectUploadRefused([{ name: 'title', value: 'Ti\0tle' }, file()], NUL, 'title');
      await expectUploadRefused([file(), { name: 'genre', value: 'Ro\0ck' }], NUL, 'genre');
    });

    it('refuses a title made only of zero-width characters, storing nothing', async () => {
      for (const title of [ZWSP, `${ZWSP}\u200D\uFEFF`, ` ${RLO}${ZWSP} `])
        await expectUploadRefused(
          [{ name: 'title', value: title }, file()],
          'Title is required',
          'title',
        );
    });

    it('stores title and genre with the direction controls stripped', async () => {
      const res = await upload([
        { name: 'title', value: ` ${RLO}Night${PDF} Ride\u2066 ` },
        { name: 'genre', value: `\u2067Jazz\u2069\u200F` },
        file(),
      ]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ title: 'Night Ride', genre: 'Jazz' });
      expect(await songRow(res.json().id)).toEqual({ title: 'Night Ride', genre: 'Jazz' });
    });

    it('strips them from a title taken from the file name, and ignores an invisible genre', async () => {
      const res = await upload([
        { name: 'genre', value: `${ZWSP}${ZWSP}` },
        file(`exe${RLO}gpj.wav`),
      ]);
      expect(res.statusCode, res.body).toBe(201);
      expect(await songRow(res.json().id)).toEqual({ title: 'exegpj', genre: null });
    });
  });

  describe('edit', () => {
    let songId: string;
    beforeAll(async () => {
      const res = await upload([
        { name: 'title', value: 'Original' },
        { name: 'genre', value: 'Rock' },
        file(),
      ]);
      songId = res.json().id;
    });

    it.each([
      ['a NUL in the title', { title: 'Bad\0Title' }, NUL, 'title'],
      ['a NUL in the genre', { genre: '\0' }, NUL, 'genre'],
      ['a zero-width title', { title: `${ZWSP}${ZWSP}` }, 'Title is required', 'title'],
      [
        'a title of direction controls only',
        { title: `${RLO}${PDF}` },
        'Title is required',
        'title',
      ],
    ])('refuses %s with 400 and changes nothing', async (_name, body, message, field) => {
      const res = await edit(songId, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
      expect(res.json().error.details?.field).toBe(field);
      expect(await songRow(songId)).toEqual({ title: 'Original', genre: 'Rock' });
    });

    it('stores an edit with the direction controls stripped; an invisible genre clears it', async () => {
      const res = await edit(songId, { title: `${RLO}Renamed${PDF}`, genre: ZWSP });
      expect(res.statusCode, res.body).toBe(200);
      expect(await songRow(songId)).toEqual({ title: 'Renamed', genre: null });
    });
  });

  describe('sign-up display name', () => {
    async function expectSignUpRefused(displayName: string, message: string) {
      const before = { users: await count('users'), profiles: await count('profiles') };
      const { res } = await signUp(ctx.app, { display_name: displayName });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
      expect({ users: await count('users'), profiles: await count('profiles') }).toEqual(before);
    }

    it('refuses NUL with 400 and creates no account', async () => {
      await expectSignUpRefused('Ann\0a', NUL);
      await expectSignUpRefused('\0'.repeat(10), NUL);
    });

    it('refuses a name that shows fewer than 2 characters', async () => {
      await expectSignUpRefused(
        `${ZWSP}${ZWSP}${ZWSP}`,
        'Display name must be at least 2 characters',
      );
      await expectSignUpRefused(`a${ZWSP}\u3164`, 'Display name must be at least 2 characters');
      await expectSignUpRefused(`${RLO}a${PDF}`, 'Display name must be at least 2 characters');
    });

    it('stores the name with the direction controls stripped', async () => {
      const { res } = await signUp(ctx.app, { display_name: ` ${RLO}Mallory${PDF}\u200E ` });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().user.display_name).toBe('Mallory');
      const [profile] = await rows<{ display_name: string }>(
        ctx,
        sql`select display_name from profiles where user_id = ${res.json().user.id}`,
      );
      expect(profile!.display_name).toBe('Mallory');
    });
  });

  describe('search and browse genre', () => {
    const get = (url: string) => ctx.app.inject({ url, headers: listener.headers });

    it('refuses NUL in the genre filter with 400', async () => {
      for (const url of ['/api/search?q=night&genre=ja%00zz', '/api/songs?genre=%00']) {
        const res = await get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'validation_failed', message: NUL });
        expect(res.json().error.details?.field).toBe('genre');
      }
    });

    it('matches a genre filter with the direction controls stripped', async () => {
      const res = await get(`/api/search?q=night&genre=${encodeURIComponent(`${RLO}jazz${PDF}`)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().songs.map((s: { title: string }) => s.title)).toEqual(['Night Ride']);
    });
  });
});
