import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { envelope, isCallbackName, toJson, toXml, xmlText } from './subsonic-envelope.ts';

const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
  }).parse(xml) as Record<string, Record<string, unknown>>;

describe('the subsonic envelope', () => {
  const head = { status: 'ok' as const, serverVersion: '0.1.0' };

  it('writes scalars as attributes, objects as elements and arrays as repeated elements', () => {
    const xml = toXml(
      envelope(head, {
        musicFolders: {
          musicFolder: [
            { id: 1, name: 'Music' },
            { id: 2, name: 'More' },
          ],
        },
        genres: { genre: [{ songCount: 3, value: 'Rock' }] },
      }),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain(
      '<subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="canto" serverVersion="0.1.0" openSubsonic="true">',
    );
    expect(xml).toContain('<musicFolder id="1" name="Music"/><musicFolder id="2" name="More"/>');
    expect(xml).toContain('<genre songCount="3">Rock</genre>');
  });

  it('stays well-formed whatever a string holds: markup, ]]>, quotes, control characters', () => {
    const nasty = 'a<b & c]]> "d" \'e\' \u0001\u0008\u000b\u000c\u001f\ud800 f\u{1F3B5}';
    const xml = toXml(
      envelope(head, { song: { title: nasty, value: nasty }, list: { item: [nasty] } }),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const song = parse(xml)['subsonic-response']!.song as Record<string, string>;
    const expected = 'a<b & c]]> "d" \'e\'  f\u{1F3B5}';
    expect(song.title).toBe(expected);
    expect(song['#text']).toBe(expected);
  });

  it('keeps line breaks and tabs of attributes as character references', () => {
    const xml = toXml(envelope(head, { song: { title: 'one\ntwo\tthree' } }));
    expect(xml).toContain('title="one&#10;two&#9;three"');
  });

  it("keeps an element text's carriage returns, which XML parsers would turn into line feeds", () => {
    const xml = toXml(envelope(head, { line: [{ value: 'one\r\ntwo\rthree' }], item: ['a\rb'] }));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<line>one&#13;\ntwo&#13;three</line><item>a&#13;b</item>');
  });

  it('escapes the five markup characters and drops what XML 1.0 cannot hold', () => {
    expect(xmlText(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&apos;');
    expect(xmlText('x\u0000y\uFFFEz\uDC00')).toBe('xyz');
  });

  it('writes JSON under subsonic-response with typed scalars', () => {
    const json = JSON.parse(toJson(envelope(head, { license: { valid: true } })));
    expect(json).toEqual({
      'subsonic-response': {
        status: 'ok',
        version: '1.16.1',
        type: 'canto',
        serverVersion: '0.1.0',
        openSubsonic: true,
        license: { valid: true },
      },
    });
  });

  it('accepts only identifier paths as JSONP callbacks', () => {
    expect(isCallbackName('cb')).toBe(true);
    expect(isCallbackName('jQuery_123.done$')).toBe(true);
    for (const bad of ['alert(1)//', 'a b', '1x', 'a..b', '', 'x;y', '<script>'])
      expect(isCallbackName(bad), bad).toBe(false);
  });
});
