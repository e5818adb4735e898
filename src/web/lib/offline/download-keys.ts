// Where a download lives in Cache Storage: stable same-origin URLs per item, never the signed
// media URLs (they expire). The service worker answers these; the page reads and writes them.

/** The named cache holding downloaded files, their index entries and the entitlement. */
export const DOWNLOADS_CACHE = 'canto-downloads-v1';

/** Every download key starts here; the service worker answers nothing else from this cache. */
export const DOWNLOADS_PATH = '/offline/';

export type DownloadKind = 'song' | 'episode';

export const audioKey = (kind: DownloadKind, id: string) => `${DOWNLOADS_PATH}${kind}/${id}/audio`;
export const coverKey = (kind: DownloadKind, id: string) => `${DOWNLOADS_PATH}${kind}/${id}/cover`;
export const metaKey = (kind: DownloadKind, id: string) => `${DOWNLOADS_PATH}${kind}/${id}/meta`;

/** Whether downloads may play: the last subscription check's answer, for page and worker. */
export const ENTITLEMENT_KEY = `${DOWNLOADS_PATH}entitlement`;

/** The stored subscription check: downloads play only while `subscribed`. */
export interface DownloadsEntitlement {
  userId: string;
  subscribed: boolean;
  checkedAt: string;
}

/** A /offline/{kind}/{id}/audio path's parts, or null for any other path. */
export function parseAudioKey(pathname: string): { kind: DownloadKind; id: string } | null {
  const m = /^\/offline\/(song|episode)\/([0-9a-f-]{36})\/audio$/i.exec(pathname);
  return m ? { kind: m[1] as DownloadKind, id: m[2]! } : null;
}
