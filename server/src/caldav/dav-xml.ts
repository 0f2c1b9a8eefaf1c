import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { DavError } from './dav-errors.ts';

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CALENDARSERVER = 'http://calendarserver.org/ns/';

/** An element of a request, named by its namespace and local name (the prefixes a client chose are gone). */
export type XmlElement = { namespace: string; name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', trimValues: true, processEntities: true });

/** Resolves each element's prefix against the xmlns declarations in scope. */
function qualified(node: OrderedNode, scope: ReadonlyMap<string, string>): XmlElement | null {
  const tag = Object.keys(node).find((key) => key !== ':@');
  if (tag === undefined || tag === '#text' || tag.startsWith('?')) return null;
  const attributes = node[':@'] ?? {};
  const inner = new Map(scope);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'xmlns') inner.set('', value);
    else if (key.startsWith('xmlns:')) inner.set(key.slice('xmlns:'.length), value);
  }
  const colon = tag.indexOf(':');
  const prefix = colon < 0 ? '' : tag.slice(0, colon);
  const namespace = inner.get(prefix);
  if (namespace === undefined && prefix !== '') throw new DavError(400, `The XML body uses the prefix ${prefix} without declaring it`);
  const content = (node[tag] as OrderedNode[] | undefined) ?? [];
  const children = content.flatMap((child) => qualified(child, inner) ?? []);
  const text = content.map((child) => (typeof child['#text'] === 'string' || typeof child['#text'] === 'number' ? String(child['#text']) : '')).join('');
  return { namespace: namespace ?? '', name: colon < 0 ? tag : tag.slice(colon + 1), attributes, children, text };
}

/** The request's root element; null for an empty body (PROPFIND then means all properties). 400 for XML that does not parse. */
export function parseDavBody(body: unknown): XmlElement | null {
  if (typeof body !== 'string' || body.trim() === '') return null;
  // No WebDAV request needs a DTD, and its entities could expand a small body into a huge one.
  if (/<!DOCTYPE/i.test(body)) throw new DavError(400, 'The XML body may not have a DOCTYPE');
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new DavError(400, `The XML body does not parse: ${valid.err.msg}`);
  const roots = (parser.parse(body) as OrderedNode[]).flatMap((node) => qualified(node, new Map()) ?? []);
  if (roots.length !== 1) throw new DavError(400, 'The XML body must have one root element');
  return roots[0]!;
}

export const childNamed = (element: XmlElement | null | undefined, namespace: string, name: string): XmlElement | undefined =>
  element?.children.find((child) => child.namespace === namespace && child.name === name);

export const childrenNamed = (element: XmlElement | null | undefined, namespace: string, name: string): XmlElement[] =>
  element?.children.filter((child) => child.namespace === namespace && child.name === name) ?? [];

/** A property's key: its namespace and name. */
export const propertyKey = (namespace: string, name: string) => `${namespace} ${name}`;

/** An element for the reply, in fast-xml-parser's builder shape; prefixes d (DAV:), c (CalDAV), cs (calendarserver.org). */
export type XmlValue = string | number | { [key: string]: XmlValue | XmlValue[] };

const PREFIXES: Record<string, string> = { [DAV]: 'd', [CALDAV]: 'c', [CALENDARSERVER]: 'cs' };

/** The reply's tag of a property; one of another namespace declares it on itself, with a prefix of its own (`x<index>`). */
export function tagOf(namespace: string, name: string, index: number): { tag: string; declaration: Record<string, string> } {
  const prefix = PREFIXES[namespace];
  if (prefix !== undefined) return { tag: `${prefix}:${name}`, declaration: {} };
  return { tag: `x${index}:${name}`, declaration: { [`@_xmlns:x${index}`]: namespace } };
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true, format: false });

/** A reply's XML document, with the three namespaces declared on its root. */
export function davDocument(rootTag: string, content: Record<string, XmlValue | XmlValue[]>): string {
  const root = { ...content, '@_xmlns:d': DAV, '@_xmlns:c': CALDAV, '@_xmlns:cs': CALENDARSERVER };
  return `<?xml version="1.0" encoding="utf-8"?>\n${builder.build({ [rootTag]: root }) as string}`;
}
