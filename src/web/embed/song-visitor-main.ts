// A song's share link as a signed-out visitor opens it: cover, title, artist, length, the 30 s
// preview on a plain <audio>, and the way in to hear the whole song. Plain DOM, so the page
// is one small script instead of the app (whose shell and player a visitor has no use for).
// The song comes from the page (#canto-embed-data, when the server writes it) or the share API.
import type { SharedSong } from '@/contracts/share.contract.ts';
import type { SongDto } from '@/contracts/songs.contract.ts';
import { formatClock, readInlineData, shareApiUrl } from './embed-data.ts';

const PLACEHOLDER_COVER = '/placeholder.svg';
const PREVIEW_SECONDS = 30;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string | number | undefined> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined) continue;
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, String(value));
  }
  node.append(...children);
  return node;
}

function artistOf(song: SongDto): string {
  if (song.artist) return song.artist;
  if (song.artist_id) return `Artist ${song.artist_id.slice(0, 8)}`;
  return 'Unknown';
}

/** /auth, then back here: the app's sign-in page reads `next`. */
const authLink = (back: string, tab?: 'sign-up') =>
  `/auth?${new URLSearchParams({ ...(tab ? { tab } : {}), next: back }).toString()}`;

function render(root: HTMLElement, song: SongDto) {
  const artist = artistOf(song);
  document.title = `${song.title} · ${artist} · Canto`;
  const back = location.pathname;
  const src = song.file_url || song.preview_url;
  const cover = el('img', {
    class: 'sv-cover',
    src: song.cover_art_url || PLACEHOLDER_COVER,
    alt: `Cover of ${song.title}`,
    width: 240,
    height: 240,
    fetchpriority: 'high',
  });
  cover.addEventListener('error', () => {
    if (!cover.src.endsWith(PLACEHOLDER_COVER)) cover.src = PLACEHOLDER_COVER;
  });
  const facts = [artist, song.genre, song.duration != null ? formatClock(song.duration) : null]
    .filter(Boolean)
    .join(' · ');
  const play = el('button', { type: 'button', class: 'sv-play', text: 'Play' });
  const bar = el('div', { class: 'sv-bar-fill' });
  const progress = el(
    'div',
    {
      class: 'sv-bar',
      role: 'progressbar',
      'aria-label': 'Preview progress',
      'aria-valuemin': 0,
      'aria-valuemax': PREVIEW_SECONDS,
      'aria-valuenow': 0,
    },
    bar,
  );
  const audio = el('audio', { preload: 'none' });
  if (src) audio.src = src;
  else play.setAttribute('disabled', '');

  root.replaceChildren(
    el(
      'div',
      { class: 'sv-head' },
      cover,
      el(
        'div',
        { class: 'sv-facts' },
        el('p', { class: 'sv-kicker', text: 'Song' }),
        el('h1', { class: 'sv-title', text: song.title }),
        el('p', { class: 'sv-muted', text: facts }),
      ),
    ),
    el(
      'div',
      { class: 'sv-player' },
      el(
        'div',
        { class: 'sv-row' },
        play,
        el('span', {
          class: 'sv-muted',
          text: src ? `${PREVIEW_SECONDS}-second preview` : 'No preview for this song',
        }),
      ),
      progress,
      audio,
    ),
    el(
      'section',
      { class: 'sv-join', 'aria-labelledby': 'sv-join-heading' },
      el('h2', { id: 'sv-join-heading', text: 'Sign up to hear the whole song' }),
      el('p', {
        class: 'sv-muted',
        text: 'Listen to every song on Canto, make playlists and follow artists.',
      }),
      el(
        'div',
        { class: 'sv-row' },
        el('a', {
          class: 'sv-button sv-primary',
          href: authLink(back, 'sign-up'),
          text: 'Sign up',
        }),
        el('a', { class: 'sv-button', href: authLink(back), text: 'Sign in' }),
      ),
    ),
  );

  play.addEventListener('click', () => {
    if (audio.paused) void audio.play().catch(() => {});
    else audio.pause();
  });
  audio.addEventListener('play', () => (play.textContent = 'Pause'));
  audio.addEventListener('pause', () => (play.textContent = 'Play'));
  audio.addEventListener('timeupdate', () => {
    const length =
      Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : PREVIEW_SECONDS;
    bar.style.width = `${Math.min(100, (audio.currentTime / length) * 100)}%`;
    progress.setAttribute('aria-valuemax', String(Math.round(length)));
    progress.setAttribute('aria-valuenow', String(Math.round(audio.currentTime)));
    progress.setAttribute(
      'aria-valuetext',
      `${formatClock(audio.currentTime)} of ${formatClock(length)}`,
    );
  });
}

function notAvailable(root: HTMLElement) {
  document.title = "This song isn't available · Canto";
  root.replaceChildren(
    el(
      'div',
      { class: 'sv-missing' },
      el('h1', { class: 'sv-title', text: "This song isn't available" }),
      el('p', {
        class: 'sv-muted',
        text: 'The link may be wrong, or the song was made private or removed.',
      }),
      el('a', { class: 'sv-button sv-primary', href: '/', text: 'Go to Canto' }),
    ),
  );
}

async function start() {
  const root = document.getElementById('song');
  if (!root) return;
  const inline = readInlineData(document.getElementById('canto-embed-data')?.textContent);
  if (inline?.kind === 'song') return render(root, inline.item.song);
  const id = /^\/song\/([^/]+)\/?$/.exec(location.pathname)?.[1];
  if (!id) return notAvailable(root);
  try {
    const res = await fetch(shareApiUrl({ kind: 'song', id: decodeURIComponent(id) }), {
      credentials: 'include',
    });
    if (!res.ok) return notAvailable(root);
    render(root, ((await res.json()) as SharedSong).song);
  } catch {
    notAvailable(root);
  }
}

void start();
