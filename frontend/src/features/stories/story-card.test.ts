import { describe, expect, it } from '@jest/globals';
import { storyCardHtml } from './story-card';

describe('storyCardHtml', () => {
  it('shows the member’s words and name escaped, never as markup', () => {
    const html = storyCardHtml({
      id: 'x',
      story: 'Sold <b>my</b> baler & trailer',
      author_name: 'Jo "JJ" <script>',
      deal: 'Sold: Baler',
      published_at: '2026-11-26T10:00:00.000Z',
    });
    expect(html).toContain('Sold &lt;b&gt;my&lt;/b&gt; baler &amp; trailer');
    expect(html).toContain('Jo &quot;JJ&quot; &lt;script&gt;');
    expect(html).not.toContain('<script>');
  });
});
