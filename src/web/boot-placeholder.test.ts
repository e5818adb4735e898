import fs from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FullPageLoading } from '@/web/components/page-status.tsx';

// index.html paints FullPageLoading's markup (minus its animations) before the scripts run;
// if the component changes, the static copy must follow or the first paint jumps when React
// mounts.
describe('index.html boot placeholder', () => {
  it('is the markup FullPageLoading renders (gradient id and animations aside)', () => {
    const html = fs.readFileSync(new URL('./index.html', import.meta.url), 'utf8');
    const root = /<div id="root">([\s\S]*?)<\/div>\s*<script/.exec(html)?.[1];
    const normalise = (markup: string) => markup.replace(/(id="|url\(#)[^")]+/g, '$1ID');
    expect(root).toBeDefined();
    const component = renderToStaticMarkup(createElement(FullPageLoading));
    expect(normalise(root!)).toBe(normalise(component.replace(/ animate-(pulse|spin)/g, '')));
  });
});
