import { describe, expect, it } from '@jest/globals';
import { imageHtml, listingCardHtml } from './listing-card';
import { sampleCard } from './sample-listing';

describe('listingCardHtml', () => {
  it('escapes user text and shows the price in pounds with VAT', () => {
    const html = listingCardHtml(sampleCard());
    expect(html).not.toContain('<script>');
    expect(html).toContain('Massey Ferguson 5713 &lt;script&gt;');
    expect(html).toContain('Jane &quot;Farmer&quot;');
    expect(html).toContain('£38,500 + VAT');
    expect(html).toContain('href="/listing/0b7c3a52-3f3a-4d3b-9a53-1f2e3d4c5b6a"');
  });

  it('shows the distance and carries the place to the detail page', () => {
    const html = listingCardHtml(sampleCard({ distance_miles: 4.26 }), { near: '123' });
    expect(html).toContain('4.3 miles away');
    expect(html).toContain('?near=123');
  });
});

describe('imageHtml', () => {
  it('is a neutral placeholder without a photo and a processing box while processing', () => {
    expect(imageHtml(undefined, 'x', '100vw')).toContain('No photo');
    expect(imageHtml({ id: 'a', status: 'processing', variants: [], url: null, width: null, height: null }, 'x', '100vw')).toContain(
      'Processing photo',
    );
  });

  it('gives a picture with AVIF and WebP sources and the size set', () => {
    const html = imageHtml(
      {
        id: 'a',
        status: 'ready',
        url: '/media/a-card.webp',
        width: 800,
        height: 600,
        variants: [
          { url: '/media/a-card.avif', width: 800, height: 600, type: 'image/avif' },
          { url: '/media/a-card.webp', width: 800, height: 600, type: 'image/webp' },
          { url: 'javascript:alert(1)', width: 400, height: 300, type: 'image/webp' },
        ],
      },
      'Tractor',
      '100vw',
    );
    expect(html).toContain('<source type="image/avif" srcset="/media/a-card.avif 800w"');
    expect(html).toContain('width="800" height="600"');
    expect(html).not.toContain('javascript:');
  });
});
