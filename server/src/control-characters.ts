import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

// eslint-disable-next-line no-control-regex -- the C0 controls are what this strips
const STRIPPED = /[\u0000-\u0008\u000b-\u001f]/g;

/**
 * Text without the C0 control characters but tab and newline (docs/behaviour/bad-input-and-limits.md): PostgreSQL refuses
 * U+0000 in text where SQLite keeps it, so both databases store the same only if neither sees
 * one. A carriage return goes too, which turns a pasted CRLF into the newline the fields keep.
 */
export function stripControlCharacters(text: string): string {
  return text.replace(STRIPPED, '');
}

/**
 * Passwords are secrets, not text: one holding a control character is refused by its schema
 * (contract/auth.ts) rather than changed into another password behind its owner's back.
 */
const SECRET_FIELDS = new Set(['password', 'current', 'temporaryPassword']);

/** No request of this API nests deeper than a few levels; a deeper one is refused before anything walks it. */
const MAX_DEPTH = 32;

/**
 * Every string inside a parsed JSON body, query or path params, stripped; keys too, so that
 * "a\u0000" cannot slip past a strict schema. `Object.fromEntries` defines keys as data, so a
 * "__proto__" key stays a key and never becomes a prototype.
 */
export function stripDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return stripControlCharacters(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) throw new AppError(400, `request nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item) => stripDeep(item, depth + 1));
  // Buffers and streams (uploads) are read by their routes, not walked here.
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      stripControlCharacters(key),
      SECRET_FIELDS.has(key) && typeof inner === 'string' ? inner : stripDeep(inner, depth + 1),
    ]),
  );
}

/** What JSON.parse makes, or the router's and the query parser's null-prototype records. */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}

/** Strips what every route reads before its schema sees it: the one edge of the rule in docs/behaviour/bad-input-and-limits.md. */
export function stripControlCharactersAtTheEdge(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined) request.body = stripDeep(request.body);
    request.query = stripDeep(request.query);
    request.params = stripDeep(request.params);
  });
}
