// A downloaded file answered to a Range request from its cached bytes (RFC 9110 §14): the
// service worker serves audio this way, so the element can seek with the network off. Pure.

/** The inclusive byte span a Range header asks of a file of `size` bytes. */
export interface ByteSpan {
  start: number;
  end: number;
}

/**
 * The first span of a `bytes=` Range header clamped to the file, or 'unsatisfiable' (416) when
 * it starts past the end, or null when the header is absent or not a byte range (the whole file).
 * Browsers' media requests ask one span at a time; a multi-span header is served its first.
 */
export function parseRange(header: string | null, size: number): ByteSpan | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*(?:,|$)/i.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    // A suffix: the last N bytes.
    const length = Number(to);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(from);
  if (start >= size) return 'unsatisfiable';
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (end < start) return 'unsatisfiable';
  return { start, end };
}

/** The headers of a 206 answer for `span` of a file of `size` bytes. */
export function partialHeaders(span: ByteSpan, size: number): Record<string, string> {
  return {
    'content-range': `bytes ${span.start}-${span.end}/${size}`,
    'content-length': String(span.end - span.start + 1),
  };
}

/**
 * The answer to a request for a cached file: the whole file (200), the span asked (206), or
 * 416 with the file's size. Works on any Response whose body is the file's bytes.
 */
export async function rangeResponse(rangeHeader: string | null, file: Response): Promise<Response> {
  if (!rangeHeader) return file;
  const blob = await file.blob();
  const span = parseRange(rangeHeader, blob.size);
  const type = file.headers.get('content-type') ?? blob.type;
  if (span === null)
    return new Response(blob, { status: 200, headers: baseHeaders(type, blob.size) });
  if (span === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { 'content-range': `bytes */${blob.size}` },
    });
  }
  return new Response(blob.slice(span.start, span.end + 1, type), {
    status: 206,
    headers: { ...baseHeaders(type), ...partialHeaders(span, blob.size) },
  });
}

function baseHeaders(type: string, size?: number): Record<string, string> {
  return {
    'content-type': type,
    'accept-ranges': 'bytes',
    ...(size !== undefined && { 'content-length': String(size) }),
  };
}
