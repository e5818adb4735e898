// The embed player (/embed/song/{id}, /embed/playlist/{id}) inside a blog's or chat's iframe:
// plain DOM and one <audio>, no React, so the page's script stays a few KB. Plays the whole
// song for a signed-in listener and the 30 s preview for everyone else (file_url, else
// preview_url). Keyboard: every control is a native button, link or range input.
import type { SongDto } from '@/contracts/songs.contract.ts';
import {
  audioUrl,
  canonicalUrl,
  embedTarget,
  formatClock,
  readInlineData,
  shareApiUrl,
  tracksOf,
  type EmbedData,
} from './embed-data.ts';

const PLACEHOLDER_COVER = '/placeholder.svg';
const ICONS = {
  play: '<path d="M8 5v14l11-7z"/>',
  pause: '<path d="M6 5h4v14H6zM14 5h4v14h-4z"/>',
  previous: '<path d="M6 6h2v12H6zm3.5 6 8.5 6V6z"/>',
  next: '<path d="M16 6h2v12h-2zM6 18l8.5-6L6 6z"/>',
};

type Props = Record<string, string | number | boolean | undefined>;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

function icon(name: keyof typeof ICONS): string {
  return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[name]}</svg>`;
}

function iconButton(name: keyof typeof ICONS, label: string, className: string) {
  const button = el('button', { type: 'button', class: className, 'aria-label': label });
  button.innerHTML = icon(name);
  return button;
}

function artistOf(song: SongDto): string {
  if (song.artist) return song.artist;
  if (song.artist_id) return `Artist ${song.artist_id.slice(0, 8)}`;
  return 'Unknown';
}

function cover(src: string | null, size: number): HTMLImageElement {
  const img = el('img', {
    class: 'embed-cover',
    src: src || PLACEHOLDER_COVER,
    alt: '',
    width: size,
    height: size,
    fetchpriority: 'high',
  });
  img.addEventListener('error', () => {
    if (!img.src.endsWith(PLACEHOLDER_COVER)) img.src = PLACEHOLDER_COVER;
  });
  return img;
}

function render(root: HTMLElement, data: EmbedData) {
  const tracks = tracksOf(data);
  const isPlaylist = data.kind === 'playlist';
  const audio = new Audio();
  audio.preload = 'none';
  let index = Math.max(
    0,
    tracks.findIndex((t) => audioUrl(t)),
  );

  const title = isPlaylist ? data.item.name : data.item.song.title;
  document.title = `${title} · Canto`;
  const art = cover(isPlaylist ? data.item.cover_art_url : data.item.song.cover_art_url, 120);
  const subtitle = el('p', { class: 'embed-subtitle' });
  const play = iconButton('play', 'Play', 'embed-play');
  const previous = isPlaylist ? iconButton('previous', 'Previous', 'embed-skip') : null;
  const next = isPlaylist ? iconButton('next', 'Next', 'embed-skip') : null;
  const elapsed = el('span', { class: 'embed-time', text: '0:00' });
  const total = el('span', { class: 'embed-time', text: '0:00' });
  const progress = el('input', {
    type: 'range',
    class: 'embed-progress',
    min: 0,
    max: 0,
    step: 0.1,
    value: 0,
    'aria-label': 'Progress',
  });
  const note = el('span', { class: 'embed-note' });
  const list = isPlaylist ? el('ol', { class: 'embed-tracks', 'aria-label': 'Tracks' }) : null;
  const trackButtons = tracks.map((song, i) => {
    const button = el(
      'button',
      { type: 'button', class: 'embed-track', disabled: !audioUrl(song) },
      el('span', { class: 'embed-track-number', text: String(i + 1) }),
      el(
        'span',
        { class: 'embed-track-text' },
        el('span', { class: 'embed-track-title', text: song.title }),
        el('span', { class: 'embed-track-artist', text: artistOf(song) }),
      ),
      el('span', { class: 'embed-time', text: song.duration ? formatClock(song.duration) : '' }),
    );
    button.addEventListener('click', () => choose(i, true));
    list?.append(el('li', {}, button));
    return button;
  });

  root.replaceChildren(
    el(
      'div',
      { class: 'embed-head' },
      art,
      el(
        'div',
        { class: 'embed-body' },
        el(
          'div',
          { class: 'embed-titles' },
          el('h1', { class: 'embed-title', text: title }),
          subtitle,
        ),
        el('div', { class: 'embed-controls' }, previous, play, next, elapsed, progress, total),
        // Below the controls, so a narrow frame keeps its width for the title.
        el(
          'div',
          { class: 'embed-foot' },
          note,
          el('a', {
            class: 'embed-brand',
            href: data.canonicalUrl,
            target: '_blank',
            rel: 'noopener',
            text: 'Listen on Canto',
          }),
        ),
      ),
    ),
  );
  if (list) root.append(list);

  function show() {
    const song = tracks[index];
    subtitle.textContent = song
      ? isPlaylist
        ? `${song.title} · ${artistOf(song)}`
        : artistOf(song)
      : 'No songs yet';
    const previewOnly = song ? !song.file_url && !!song.preview_url : false;
    note.textContent = song && !audioUrl(song) ? 'Not playable here' : previewOnly ? 'Preview' : '';
    play.disabled = !song || !audioUrl(song);
    if (previous) previous.disabled = index <= 0;
    if (next) next.disabled = index >= tracks.length - 1;
    trackButtons.forEach((b, i) => {
      if (i === index) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    });
    const length = song?.duration ?? 0;
    total.textContent = formatClock(previewOnly ? Math.min(length, 30) : length);
  }

  function choose(i: number, start: boolean) {
    const song = tracks[i];
    if (!song || !audioUrl(song)) return;
    index = i;
    audio.src = audioUrl(song)!;
    progress.value = '0';
    elapsed.textContent = '0:00';
    show();
    if (start) void audio.play().catch(() => {});
  }

  function setPlaying(playing: boolean) {
    play.innerHTML = icon(playing ? 'pause' : 'play');
    play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  }

  play.addEventListener('click', () => {
    if (!audio.src) choose(index, false);
    if (audio.paused) void audio.play().catch(() => setPlaying(false));
    else audio.pause();
  });
  previous?.addEventListener('click', () => choose(index - 1, true));
  next?.addEventListener('click', () => choose(index + 1, true));
  progress.addEventListener('input', () => {
    audio.currentTime = Number(progress.value);
  });
  audio.addEventListener('play', () => setPlaying(true));
  audio.addEventListener('pause', () => setPlaying(false));
  audio.addEventListener('durationchange', () => {
    if (Number.isFinite(audio.duration)) {
      progress.max = String(audio.duration);
      total.textContent = formatClock(audio.duration);
    }
  });
  audio.addEventListener('timeupdate', () => {
    progress.value = String(audio.currentTime);
    elapsed.textContent = formatClock(audio.currentTime);
    progress.setAttribute(
      'aria-valuetext',
      `${formatClock(audio.currentTime)} of ${total.textContent ?? '0:00'}`,
    );
  });
  audio.addEventListener('ended', () => {
    // A playlist goes on to its next playable track, as a listener expects.
    const following = tracks.findIndex((t, i) => i > index && audioUrl(t));
    if (following >= 0) choose(following, true);
  });
  show();
}

function notAvailable(root: HTMLElement, kind: 'song' | 'playlist', href: string) {
  root.replaceChildren(
    el(
      'div',
      { class: 'embed-missing' },
      el('h1', { class: 'embed-title', text: `This ${kind} isn't available` }),
      el('a', {
        class: 'embed-brand',
        href,
        target: '_blank',
        rel: 'noopener',
        text: 'Listen on Canto',
      }),
    ),
  );
}

async function start() {
  const root = document.getElementById('embed');
  if (!root) return;
  const inline = readInlineData(document.getElementById('canto-embed-data')?.textContent);
  if (inline) return render(root, inline);
  const target = embedTarget(location.pathname);
  if (!target) return notAvailable(root, 'song', location.origin);
  const href = canonicalUrl(target, location.origin);
  try {
    const res = await fetch(shareApiUrl(target), { credentials: 'include' });
    if (!res.ok) return notAvailable(root, target.kind, location.origin);
    const item = (await res.json()) as EmbedData['item'];
    render(root, { kind: target.kind, item, canonicalUrl: href } as EmbedData);
  } catch {
    notAvailable(root, target.kind, href);
  }
}

void start();
