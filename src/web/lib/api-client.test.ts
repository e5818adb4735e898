import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { userMessages } from '@/core/error-messages.ts';
import { authApi } from '@/contracts/api/auth.api.ts';
import { defineRoute } from '@/contracts/api/define-route.ts';
import { libraryApi } from '@/contracts/api/library.api.ts';
import { mfaApi } from '@/contracts/api/mfa.api.ts';
import { notificationsApi } from '@/contracts/api/notifications.api.ts';
import { playlistsApi } from '@/contracts/api/playlists.api.ts';
import { podcastFeedApi } from '@/contracts/api/podcast-feed.api.ts';
import { searchApi } from '@/contracts/api/search.api.ts';
import { socialApi } from '@/contracts/api/social.api.ts';
import type { PlaylistDetail, PlaylistSummary } from '@/contracts/playlists.contract.ts';
import type { ProfileDto } from '@/contracts/social.contract.ts';
import { api, ApiError, errorMessage, routeUrl, setStepUpHandler } from './api-client.ts';

const summary: PlaylistSummary = {
  id: '6f1c1a52-6a1b-4c1e-9a39-4a4f1f6f2b10',
  user_id: '0b9e1c6e-08f2-4a51-8a8f-64a2d8f1c9d3',
  title: 'Road trip',
  description: null,
  is_public: true,
  cover_art_url: null,
  track_count: 0,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: null,
};

type Sent = { url: string; init: RequestInit };

/** fetch answering `status` with `body` (JSON unless a string), recording what was sent. */
function answer(status: number, body?: unknown): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      const text =
        body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
      return new Response(text, { status });
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('routeUrl', () => {
  it('fills each :param of the path, encoded', () => {
    const url = routeUrl(playlistsApi.removeTrack, {
      params: { id: 'a b', songId: 'itunes:1/2?x#y' },
    });
    expect(url).toBe('/api/playlists/a%20b/tracks/itunes%3A1%2F2%3Fx%23y');
  });

  it('refuses to call a path with a param missing', () => {
    expect(() => routeUrl(playlistsApi.get, { params: {} })).toThrow(
      'GET /api/playlists/:id: no value for :id',
    );
  });

  it('serializes the query, leaving out what is undefined', () => {
    const url = routeUrl(searchApi.search, {
      query: { q: 'rock & roll', type: 'songs', genre: undefined, limit: 5 },
    });
    expect(url).toBe('/api/search?q=rock+%26+roll&type=songs&limit=5');
    expect(routeUrl(notificationsApi.list, { query: { unread: undefined } })).toBe(
      '/api/me/notifications',
    );
  });
});

describe('api(route, input)', () => {
  it('sends the method, the filled path and the JSON body, and resolves to the answer', async () => {
    const sent = answer(200, summary);
    const controller = new AbortController();
    const got = await api(playlistsApi.update, {
      params: { id: summary.id },
      body: { title: 'Road trip' },
      signal: controller.signal,
    });
    expect(got).toEqual(summary);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`/api/playlists/${summary.id}`);
    expect(sent[0]!.init).toMatchObject({
      method: 'PATCH',
      credentials: 'include',
      body: '{"title":"Road trip"}',
      signal: controller.signal,
      headers: { 'Content-Type': 'application/json' },
    });
  });

  it('sends no body where the entry has none, and resolves 204 to undefined', async () => {
    const sent = answer(204);
    await expect(api(libraryApi.like, { params: { songId: 's1' } })).resolves.toBeUndefined();
    expect(sent[0]!.init.method).toBe('PUT');
    expect(sent[0]!.init.body).toBeUndefined();
    expect(sent[0]!.init.headers).not.toHaveProperty('Content-Type');
  });

  it('sends a multipart entry its FormData as is (the browser sets the boundary)', async () => {
    const sent = answer(200, { wrong: 'shape' });
    vi.stubEnv('DEV', false);
    const form = new FormData();
    form.set('avatar', new Blob(['x']), 'a.png');
    await api(socialApi.replaceAvatar, { body: form });
    expect(sent[0]!.init.body).toBe(form);
    expect(sent[0]!.init.headers).not.toHaveProperty('Content-Type');
  });

  it('turns an error answer into an ApiError with its code', async () => {
    answer(409, { error: { code: 'conflict', message: 'Already in this playlist' } });
    const failure = api(playlistsApi.addTrack, {
      params: { id: summary.id },
      body: { song_id: 's1' },
    });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 409, code: 'conflict' });
  });

  it('refreshes the session once on 401 and retries, but not for sign-in itself', async () => {
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => {} });
    const answers = [new Response(null, { status: 401 }), new Response(null, { status: 200 })];
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        sent.push(url);
        return answers.shift() ?? new Response(JSON.stringify(summary), { status: 200 });
      }),
    );
    vi.stubEnv('DEV', false);
    await expect(api(playlistsApi.get, { params: { id: summary.id } })).resolves.toEqual(summary);
    expect(sent).toEqual([
      `/api/playlists/${summary.id}`,
      '/api/auth/refresh',
      `/api/playlists/${summary.id}`,
    ]);

    const signIn = answer(401, { error: { code: 'auth_invalid_credentials', message: 'No' } });
    const failure = api(authApi.signIn, { body: { email: 'a@b.c', password: 'x' } });
    await expect(failure).rejects.toMatchObject({ status: 401, code: 'auth_invalid_credentials' });
    expect(signIn.map((s) => s.url)).toEqual(['/api/auth/sign-in']);
  });

  it('asks for the step-up on 403 insufficient_aal', async () => {
    let asked = 0;
    setStepUpHandler(() => asked++);
    answer(403, { error: { code: 'insufficient_aal', message: 'Verify' } });
    await expect(api(playlistsApi.mine)).rejects.toMatchObject({ code: 'insufficient_aal' });
    setStepUpHandler(null);
    expect(asked).toBe(1);
  });

  it('in development, refuses an answer outside the entry, naming the route and the field', async () => {
    vi.stubEnv('DEV', true);
    answer(200, { ...summary, track_count: 'none' });
    await expect(
      api(playlistsApi.update, { params: { id: summary.id }, body: {} }),
    ).rejects.toThrow(/^PATCH \/api\/playlists\/:id answered outside its contract: track_count: /);
  });

  it('in development, refuses an answer with a status the entry does not give', async () => {
    vi.stubEnv('DEV', true);
    answer(200, summary);
    await expect(api(playlistsApi.create, { body: { title: 'Road trip' } })).rejects.toThrow(
      'POST /api/playlists answered outside its contract: status 200, not 201',
    );
  });

  it('in production, hands the answer over as received', async () => {
    vi.stubEnv('DEV', false);
    answer(200, { ...summary, track_count: 'none' });
    await expect(
      api(playlistsApi.update, { params: { id: summary.id }, body: {} }),
    ).resolves.toMatchObject({ track_count: 'none' });
  });

  it('types the answer and the input from the entry', () => {
    // Compiled by `npm run typecheck`, never run: each line is a check of the types.
    const checks = () => {
      expectTypeOf(
        api(playlistsApi.get, { params: { id: summary.id } }),
      ).resolves.toEqualTypeOf<PlaylistDetail>();
      expectTypeOf(api(socialApi.myProfile)).resolves.toEqualTypeOf<ProfileDto>();
      expectTypeOf(api(libraryApi.like, { params: { songId: 's1' } })).resolves.toBeVoid();
      expectTypeOf(api(mfaApi.remove, { params: { factorId: 'f' } })).resolves.toBeVoid();
      expectTypeOf(api(authApi.signOut)).resolves.toBeVoid();
      // @ts-expect-error the path's :id is required
      void api(playlistsApi.get);
      // @ts-expect-error params are named as in the path
      void api(playlistsApi.get, { params: { playlistId: 'p' } });
      // @ts-expect-error the body is the entry's (title is a string)
      void api(playlistsApi.create, { body: { title: 1 } });
      // @ts-expect-error a multipart entry takes FormData
      void api(socialApi.replaceAvatar, { body: { avatar: 'x' } });
      // @ts-expect-error an entry without a query takes none
      void api(socialApi.myProfile, { query: { limit: 1 } });
      // @ts-expect-error the RSS feed is not JSON: podcast apps read it, not api()
      void api(podcastFeedApi.feed, { params: { id: 'p' } });
      const local = defineRoute({ method: 'GET', path: '/api/x' });
      expectTypeOf(api(local)).resolves.toBeVoid();
    };
    expect(checks).toBeTypeOf('function');
  });
});

describe('errorMessage: the one way the web app words a failure', () => {
  it("gives a refusal in the server's own words", () => {
    expect(errorMessage(new ApiError(409, 'conflict', 'Already in playlist'), 'Failed')).toBe(
      'Already in playlist',
    );
    expect(errorMessage(new ApiError(0, 'network_error', userMessages.network), 'Failed')).toBe(
      userMessages.network,
    );
  });

  it('gives the fallback for a server failure, whose text helps nobody', () => {
    expect(
      errorMessage(new ApiError(500, 'internal_error', 'Internal server error'), 'Failed'),
    ).toBe('Failed');
    expect(errorMessage(new ApiError(502, 'http_error', 'Request failed (502)'), 'Failed')).toBe(
      'Failed',
    );
  });

  it("words it with spec §8's mapper when no fallback is given", () => {
    expect(errorMessage(new ApiError(500, 'internal_error', 'Internal server error'))).toBe(
      userMessages.fallback,
    );
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(userMessages.network);
  });

  it('gives nothing but a refusal with a null fallback', () => {
    expect(errorMessage(new ApiError(500, 'internal_error', 'Internal server error'), null)).toBe(
      undefined,
    );
    expect(errorMessage(new ApiError(404, 'not_found', 'Profile not found'), null)).toBe(
      'Profile not found',
    );
  });
});
