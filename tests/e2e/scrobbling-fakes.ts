// The journeys' ListenBrainz and Last.fm: serve.ts starts local fakes speaking their protocols
// (tests/helpers/fake-*.ts) and points the server at them, so scrobbling journeys never reach
// the internet. The ListenBrainz fake knows one user token, a journey's to type.
import { LASTFM_TEST_KEY, LASTFM_TEST_SECRET, startFakeLastfm } from '../helpers/fake-lastfm.ts';
import { startFakeListenBrainz } from '../helpers/fake-listenbrainz.ts';

export const E2E_LISTENBRAINZ_TOKEN = 'e2e-listenbrainz-user-token';
export const E2E_LISTENBRAINZ_USER = 'e2e-scrobbler';

/** Starts both fakes; resolves to the server's settings for them and a stop function. */
export async function startScrobblingFakes(): Promise<{
  env: Record<string, string>;
  stop: () => Promise<void>;
}> {
  const listenBrainz = await startFakeListenBrainz();
  listenBrainz.tokens.set(E2E_LISTENBRAINZ_TOKEN, E2E_LISTENBRAINZ_USER);
  const lastfm = await startFakeLastfm();
  return {
    env: {
      LISTENBRAINZ_URL: listenBrainz.url,
      LASTFM_API_URL: lastfm.apiUrl,
      LASTFM_AUTH_URL: lastfm.url,
      LASTFM_API_KEY: LASTFM_TEST_KEY,
      LASTFM_API_SECRET: LASTFM_TEST_SECRET,
      // The fakes listen on 127.0.0.1, which the outbound guard refuses unless told otherwise.
      SCROBBLE_ALLOW_PRIVATE: '1',
    },
    stop: async () => {
      await Promise.all([listenBrainz.close(), lastfm.close()]);
    },
  };
}
