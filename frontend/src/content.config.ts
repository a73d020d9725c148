import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/**
 * The blog's articles: one Markdown file each in src/content/blog, named by its slug (the address
 * /blog/<slug>). Reading time is computed from the text (features/blog/articles.ts), never written.
 */
const blog = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/blog' }),
  schema: z.object({
    title: z.string().max(100),
    excerpt: z.string().max(240),
    author: z.string(),
    authorRole: z.string(),
    date: z.coerce.date(),
    category: z.string(),
    keywords: z.array(z.string()).min(1),
  }),
});

export const collections = { blog };
