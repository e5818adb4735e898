import type { SubsonicPayload } from './subsonic-method.ts';

// The subsonic-response envelope (docs/decisions/0034) in XML or JSON: one payload shape,
// two writers. XML gets scalars as attributes, objects as child elements and arrays as
// repeated elements; a `value` key is an element's text (`<genre songCount="3">Rock</genre>`).

export const SUBSONIC_API_VERSION = '1.16.1';
export const SUBSONIC_XMLNS = 'http://subsonic.org/restapi';

export type EnvelopeHead = { status: 'ok' | 'failed'; serverVersion: string };

/** The envelope's own fields, then the method's payload (or `error`). */
export function envelope(head: EnvelopeHead, payload: SubsonicPayload): SubsonicPayload {
  return {
    status: head.status,
    version: SUBSONIC_API_VERSION,
    type: 'canto',
    serverVersion: head.serverVersion,
    openSubsonic: true,
    ...payload,
  };
}

// Characters XML 1.0 cannot hold at all (C0 controls but tab, CR, LF; lone surrogates;
// U+FFFE/U+FFFF): dropped, since escaping them is not allowed either.
const ILLEGAL_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text made safe for an attribute or element: illegal characters dropped, markup escaped. */
export function xmlText(value: string): string {
  return value.replace(ILLEGAL_XML, '').replace(/[<>&"']/g, (c) => XML_ESCAPES[c]!);
}
const XML_ESCAPES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
  // Attributes normalize raw whitespace; encoded, a title's line break survives.
};

const attrText = (value: string) =>
  xmlText(value).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');

// XML parsers turn a raw CR (and CRLF) of element text into LF; encoded, a lyric's or a
// description's line endings arrive as written.
const elementText = (value: string) => xmlText(value).replace(/\r/g, '&#13;');

// Names come from the code (method payload keys), never from input; checked all the same.
const XML_NAME = /^[A-Za-z_][\w.-]*$/;
function xmlName(name: string): string {
  if (!XML_NAME.test(name)) throw new Error(`not an XML name: ${name}`);
  return name;
}

const isScalar = (v: unknown): v is string | number | boolean | bigint =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';

const scalarText = (v: string | number | boolean | bigint) => String(v);

function element(name: string, value: unknown, out: string[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) element(name, item, out);
    return;
  }
  const tag = xmlName(name);
  if (isScalar(value) || value instanceof Date) {
    const text = value instanceof Date ? value.toISOString() : scalarText(value);
    out.push(`<${tag}>${elementText(text)}</${tag}>`);
    return;
  }
  const fields = Object.entries(value as Record<string, unknown>);
  let attrs = '';
  let text = '';
  const children: Array<[string, unknown]> = [];
  for (const [key, v] of fields) {
    if (v === undefined || v === null) continue;
    if (key === 'value' && isScalar(v)) text = elementText(scalarText(v));
    else if (v instanceof Date) attrs += ` ${xmlName(key)}="${v.toISOString()}"`;
    else if (isScalar(v)) attrs += ` ${xmlName(key)}="${attrText(scalarText(v))}"`;
    else children.push([key, v]);
  }
  if (!children.length && !text) {
    out.push(`<${tag}${attrs}/>`);
    return;
  }
  out.push(`<${tag}${attrs}>${text}`);
  for (const [key, v] of children) element(key, v, out);
  out.push(`</${tag}>`);
}

/** The envelope as an XML document, well-formed whatever its strings hold. */
export function toXml(body: SubsonicPayload): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  element('subsonic-response', { xmlns: SUBSONIC_XMLNS, ...body }, out);
  return out.join('');
}

/** The envelope as JSON: `{"subsonic-response": {...}}`. */
export function toJson(body: SubsonicPayload): string {
  const doc = { 'subsonic-response': body };
  // A replacer is called for every key (a 20,000-artist index is 4 MB): only when a bigint
  // made the plain pass throw.
  try {
    return JSON.stringify(doc);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(doc, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  }
}

// A JSONP callback is written into JavaScript: only a dotted path of identifiers.
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
export const isCallbackName = (name: string): boolean => name.length <= 100 && CALLBACK.test(name);
