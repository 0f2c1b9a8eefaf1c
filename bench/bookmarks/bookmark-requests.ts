import type { BookmarkQuerySpec } from '../../contract/bookmarks.ts';
import { random } from '../books/generate-catalogue.ts';
import { generateBookmarks } from './generate-bookmarks.ts';

export type BenchRequest = { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> };

/**
 * Searches as people make them for a page they saved (among the `bookmarks` generated): one or
 * two words of its title, the last sometimes cut short; a fifth narrowed to the page's site (a
 * host group), a tenth to titles.
 */
export function bookmarkSearchStream(bookmarks: number, count: number): BenchRequest[] {
  const r = random(5);
  const saved = [...generateBookmarks(bookmarks)].filter((_, i) => i % 17 === 0);
  return Array.from({ length: count }, () => {
    const bookmark = r.pick(saved);
    const words = bookmark.title.split(' ');
    const start = r.int(words.length);
    const picked = words.slice(start, start + 1 + r.int(2));
    const last = picked.length - 1;
    if (r.int(4) === 0 && picked[last]!.length > 4) picked[last] = picked[last]!.slice(0, -2);
    const spec: BookmarkQuerySpec = {
      key_words: picked,
      ...(r.int(5) === 0 ? { hosts: [bookmark.host] } : {}),
      ...(r.int(10) === 0 ? { fields: ['title'] } : {}),
    };
    return { method: 'POST', path: '/api/bookmarks/query?size=10', body: JSON.stringify(spec), headers: { 'content-type': 'application/json' } };
  });
}

/** The list's first page, a third of the time filtered by one of the common tags. */
export function bookmarkPageStream(count: number): BenchRequest[] {
  const r = random(9);
  const tags = ['to-read', 'work', 'reference', 'javascript', 'typescript', 'rust', 'python', 'recipes'];
  return Array.from({ length: count }, () => ({
    method: 'GET',
    path: r.int(3) === 0 ? `/bookmarks/?pageSize=10&tag=${r.pick(tags)}` : '/bookmarks/?pageSize=10',
  }));
}
