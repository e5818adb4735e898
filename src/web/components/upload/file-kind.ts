// What a chosen file says it is, for the upload forms' checks before a byte is sent. The
// browser names a file's type (File.type) from what it sniffs of the file, its name first;
// '' when it cannot tell. The server reads the bytes and decides (src/server/media/README.md).
import type { UploadFile } from './upload.ts';

export type FileKind = 'audio' | 'image';

/** The browser names this kind (`audio/…`, `image/…`). */
export function namesKind(file: UploadFile, kind: FileKind): boolean {
  return file.type.startsWith(`${kind}/`);
}

/**
 * The browser names another kind: plainly not one, no need to send megabytes. A type it
 * cannot tell is left to the server.
 */
export function namesOtherKind(file: UploadFile, kind: FileKind): boolean {
  return file.type !== '' && !namesKind(file, kind);
}
