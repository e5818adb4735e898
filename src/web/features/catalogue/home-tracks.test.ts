import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HOME_LOAD_FAILED, HomeTracks } from './home-tracks.tsx';

const render = (props: Partial<Parameters<typeof HomeTracks>[0]>) =>
  renderToStaticMarkup(
    createElement(HomeTracks, {
      data: undefined,
      isPending: false,
      isError: false,
      retrying: false,
      onRetry: () => {},
      ...props,
    }),
  );

describe('Home tracks', () => {
  it('a failed load says so with Retry, not an empty catalogue', () => {
    const html = render({ isError: true });
    expect(html).toContain('role="alert"');
    expect(html).toContain(HOME_LOAD_FAILED);
    expect(html).toMatch(/<button[^>]*>.*Retry<\/button>/);
    expect(html).not.toContain('No tracks available yet');
  });

  it('an empty catalogue still reads as no tracks yet', () => {
    const html = render({ data: { recent: [], popular: [] } });
    expect(html).toContain('No tracks available yet');
    expect(html).not.toContain('role="alert"');
  });

  it('loading shows skeletons', () => {
    expect(render({ isPending: true })).toContain('data-testid="recent-tracks-loading"');
  });
});
