// How another screen opens the upload with a cover already chosen (the AI Music Creator's
// 'Use as cover for an upload'): a stored cover's URL in the route state, fetched here into a
// File, so the upload sends those bytes as its cover like a picked file.

/** The route state /upload reads. */
export type UploadRouteState = { coverUrl?: string };

/** Only Canto's own stored covers: a route state is no way to make the page fetch elsewhere. */
const OWN_COVER = /^\/media\/cover-art\/[0-9a-f-]{36}(?:\/[0-9]{1,16})?\.(png|jpe?g|webp)$/;

/** Where to navigate: `navigate(to, { state })`. */
export const uploadWithCover = (coverUrl: string): { to: string; state: UploadRouteState } => ({
  to: '/upload',
  state: { coverUrl },
});

/** The cover a route state names, as a File; null when there is none or it is not ours. */
export async function coverFromState(state: unknown, signal?: AbortSignal): Promise<File | null> {
  const url = (state as UploadRouteState | null)?.coverUrl;
  if (typeof url !== 'string' || !OWN_COVER.test(url)) return null;
  const res = await fetch(url, { signal, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`Cover art could not be loaded (${res.status})`);
  const blob = await res.blob();
  const name = url.slice(url.lastIndexOf('/') + 1);
  return new File([blob], `ai-cover-${name}`, { type: blob.type || 'image/png' });
}
