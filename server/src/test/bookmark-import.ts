import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type Bookmark, BookmarkImportReply } from '../../../contract/bookmarks.ts';
import type { BookmarksClient } from './bookmarks-client.ts';
import { bookmarkFileText } from '../bookmarks/bookmark-file-text.ts';
import { type FileBookmark, readNetscapeFile } from '../bookmarks/netscape-file-reader.ts';
import { multipart } from './multipart.ts';

/** A bookmarks file of `server/src/bookmarks/fixtures/`, as bytes. */
export function bookmarkFixture(name: string): Buffer {
  return fs.readFileSync(path.join(import.meta.dirname, '../bookmarks/fixtures', name));
}

/** Uploads a bookmarks file as the client's import button does. */
export function uploadBookmarks(app: FastifyInstance, client: BookmarksClient, file: Buffer | string) {
  const body = multipart([['file', file, 'bookmarks.html']]);
  return app.inject({ method: 'POST', url: '/bookmarks/import', payload: body.payload, headers: { ...body.headers, ...client.headers } });
}

/** Uploads a bookmarks file that must import; its reply, parsed. */
export async function importBookmarks(app: FastifyInstance, client: BookmarksClient, file: Buffer | string): Promise<BookmarkImportReply> {
  const response = await uploadBookmarks(app, client, file);
  expect(response.statusCode, response.body).toBe(200);
  return BookmarkImportReply.parse(response.json());
}

/** Every bookmark of the client (at most 100), by link. */
export async function bookmarksByLink(client: BookmarksClient): Promise<Map<string, Bookmark>> {
  return new Map((await client.list({ pageSize: '100' })).items.map((item) => [item.link, item]));
}

/** Every link of a bookmarks file as the importer reads it, before any validation. */
export async function readFileLinks(file: Uint8Array): Promise<FileBookmark[]> {
  const links: FileBookmark[] = [];
  for await (const read of readNetscapeFile(bookmarkFileText([file]))) links.push(...read);
  return links;
}
