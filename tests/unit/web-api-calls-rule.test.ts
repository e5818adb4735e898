/**
 * The web app calls the API through the route table (eslint.config.js, `apiThroughTable`;
 * docs/decisions/0025). These cases lint a made-up web file and expect the rule to fire on a
 * path written as a string, on the older path-and-type methods and on an answer typed by the
 * call site, and stay quiet on a call by an entry.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function syntaxErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const PATH = 'route table entry';
const LEGACY = 'there is no api.get';
const TYPE_ARGUMENT = 'no type argument';
const AS = 'no `as`';

const feature = 'src/web/features/library/use-playlists.ts';

const cases: {
  file: string;
  code: string;
  /** The message the rule gives, or null when the code is allowed. */
  refused: string | null;
  because: string;
}[] = [
  {
    file: feature,
    code: "export const load = () => fetch('/api/me/playlists');\n",
    refused: PATH,
    because: 'an API path as a string literal',
  },
  {
    file: feature,
    code: 'export const load = (id: string) => fetch(`/api/playlists/${id}`);\n',
    refused: PATH,
    because: 'an API path as a template',
  },
  {
    file: 'src/web/components/upload/upload.ts',
    code: 'export const open = (xhr: XMLHttpRequest, path: string) => xhr.open("POST", `/api${path}`);\n',
    refused: PATH,
    because: 'a component building an API URL itself',
  },
  {
    file: feature,
    code: "import { api } from '@/web/lib/api-client.ts';\nexport const load = (path: string) => api.get(path);\n",
    refused: LEGACY,
    because: 'a call of the older path method',
  },
  {
    file: feature,
    code: "import { api } from '@/web/lib/api-client.ts';\nexport const send = api.delete;\n",
    refused: LEGACY,
    because: 'the older path method passed around',
  },
  {
    file: 'src/web/player/stream-recorder.ts',
    code: "export const start = (id: string) => fetch(`/api/songs/${id}/plays`, { method: 'POST' });\n",
    refused: PATH,
    because: 'the player building an API path (no layer is exempt)',
  },
  {
    file: 'src/web/session/use-session.ts',
    code: "import { api } from '@/web/lib/api-client.ts';\nexport const load = () => api.get('/auth/session');\n",
    refused: LEGACY,
    because: 'the session calling by path (no layer is exempt)',
  },
  {
    file: feature,
    code: "import { api } from '@/web/lib/api-client.ts';\nimport { playlistsApi } from '@/contracts/api/playlists.api.ts';\ntype Mine = { items: string[] };\nexport const load = () => api<Mine>(playlistsApi.mine);\n",
    refused: TYPE_ARGUMENT,
    because: 'a call stating its answer by a type argument',
  },
  {
    file: feature,
    code: "import { api } from '@/web/lib/api-client.ts';\nimport { playlistsApi } from '@/contracts/api/playlists.api.ts';\nexport const load = () => api(playlistsApi.mine) as Promise<unknown>;\n",
    refused: AS,
    because: "a call's answer cast with as",
  },
  {
    file: feature,
    code: "import { api } from '@/web/lib/api-client.ts';\nimport { playlistsApi } from '@/contracts/api/playlists.api.ts';\nexport const load = async () => (await api(playlistsApi.mine)) as unknown;\n",
    refused: AS,
    because: 'an awaited answer cast with as',
  },
  {
    file: feature,
    code: "import { api } from '@/web/lib/api-client.ts';\nimport { playlistsApi } from '@/contracts/api/playlists.api.ts';\nexport const load = (id: string) => api(playlistsApi.get, { params: { id } });\n",
    refused: null,
    because: 'a call by its table entry',
  },
  {
    file: 'src/web/components/upload/upload.ts',
    code: "import { routeUrl } from '@/web/lib/api-client.ts';\nimport { songsApi } from '@/contracts/api/songs.api.ts';\nexport const url = routeUrl(songsApi.upload, {});\n",
    refused: null,
    because: "an upload's URL from its entry",
  },
  {
    file: feature,
    code: "export const href = (id: string) => `/playlist/${id}`;\nexport const home = '/';\n",
    refused: null,
    because: "a screen's path is no API path",
  },
  {
    file: 'src/web/lib/api-client.ts',
    code: 'export const url = (path: string) => `/api${path}`;\n',
    refused: null,
    because: 'the client is where paths become URLs',
  },
];

describe('web API call rule', () => {
  it.each(cases)('$file: $because', async ({ file, code, refused }) => {
    const errors = await syntaxErrors(file, code);
    if (refused === null) expect(errors).toEqual([]);
    else expect(errors).toEqual([expect.stringContaining(refused)]);
  });
});
