/**
 * What an audio file's first bytes say it is. Only the containers we store and serve
 * (storage MEDIA_TYPES) count; anything else — HTML, images, executables, ADTS — is refused
 * before the rest of the file is even read.
 */
export type AudioContainer = 'mp3' | 'wav' | 'flac' | 'ogg' | 'm4a';

/** Bytes needed to decide (`ftyp` sits at offset 4..8, WAVE at 8..12). */
export const SIGNATURE_BYTES = 12;

const ascii = (b: Uint8Array, at: number, text: string) => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

/** MPEG audio frame header: 11 sync bits, a real version and layer, a usable bitrate and rate. */
function isMpegFrame(b: Uint8Array): boolean {
  if (b.length < 4 || b[0] !== 0xff || (b[1]! & 0xe0) !== 0xe0) return false;
  const version = (b[1]! >> 3) & 0b11;
  const layer = (b[1]! >> 1) & 0b11;
  const bitrate = b[2]! >> 4;
  const rate = (b[2]! >> 2) & 0b11;
  // version 01 is reserved; layer 00 is ADTS AAC, not MPEG audio; 1111 and 11 are invalid.
  return version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111 && rate !== 0b11;
}

export function detectAudioContainer(b: Uint8Array): AudioContainer | null {
  if (ascii(b, 0, 'ID3')) return 'mp3';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return 'wav';
  if (ascii(b, 0, 'fLaC')) return 'flac';
  if (ascii(b, 0, 'OggS')) return 'ogg';
  if (ascii(b, 4, 'ftyp')) return 'm4a';
  if (isMpegFrame(b)) return 'mp3';
  return null;
}
