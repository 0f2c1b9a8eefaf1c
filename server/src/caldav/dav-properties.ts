import { childNamed, DAV, propertyKey, tagOf, type XmlElement, type XmlValue } from './dav-xml.ts';

/** What a PROPFIND or REPORT asks of each resource: named properties, all of them, or their names. */
export type PropertyRequest = { kind: 'all' } | { kind: 'names' } | { kind: 'some'; properties: { namespace: string; name: string }[] };

/** A resource's property and its value, given as the element's content (or made only when asked for: calendar data). */
export type Property = { namespace: string; name: string; value: XmlValue | (() => XmlValue); notInAllprop?: boolean };

const valueOf = ({ namespace, name, value }: Property) => ({ namespace, name, value: typeof value === 'function' ? value() : value });

/** The request inside `element` (a propfind, or a report's body); none at all means every property (RFC 4918 §9.1). */
export function propertyRequestOf(element: XmlElement | null): PropertyRequest {
  if (element === null || childNamed(element, DAV, 'allprop')) return { kind: 'all' };
  if (childNamed(element, DAV, 'propname')) return { kind: 'names' };
  const prop = childNamed(element, DAV, 'prop');
  if (!prop) return { kind: 'all' };
  return { kind: 'some', properties: prop.children.map(({ namespace, name }) => ({ namespace, name })) };
}

const OK = 'HTTP/1.1 200 OK';
const NOT_FOUND = 'HTTP/1.1 404 Not Found';

function propElement(properties: { namespace: string; name: string; value: XmlValue }[]): Record<string, XmlValue> {
  const prop: Record<string, XmlValue> = {};
  properties.forEach(({ namespace, name, value }, index) => {
    const { tag, declaration } = tagOf(namespace, name, index);
    if (Object.keys(declaration).length === 0) prop[tag] = value;
    else prop[tag] = typeof value === 'object' ? { ...value, ...declaration } : { '#text': value, ...declaration };
  });
  return prop;
}

/** One `<d:response>` of a multistatus: the properties found (200) and those asked for that the resource does not have (404). */
export function davResponse(href: string, properties: readonly Property[], request: PropertyRequest): XmlValue {
  const byKey = new Map(properties.map((property) => [propertyKey(property.namespace, property.name), property]));
  let found: { namespace: string; name: string; value: XmlValue }[];
  let missing: { namespace: string; name: string; value: XmlValue }[] = [];
  if (request.kind === 'all') found = properties.filter((property) => !property.notInAllprop).map(valueOf);
  else if (request.kind === 'names') found = properties.map(({ namespace, name }) => ({ namespace, name, value: '' }));
  else {
    found = request.properties.flatMap(({ namespace, name }) => {
      const property = byKey.get(propertyKey(namespace, name));
      return property ? [valueOf(property)] : [];
    });
    missing = request.properties
      .filter(({ namespace, name }) => !byKey.has(propertyKey(namespace, name)))
      .map(({ namespace, name }) => ({ namespace, name, value: '' }));
  }
  const propstats = [
    ...(found.length > 0 || missing.length === 0 ? [{ 'd:prop': propElement(found), 'd:status': OK }] : []),
    ...(missing.length > 0 ? [{ 'd:prop': propElement(missing), 'd:status': NOT_FOUND }] : []),
  ];
  return { 'd:href': href, 'd:propstat': propstats };
}

/** A resource that is not there (a multiget's unknown href, a sync's deleted task). */
export const davMissing = (href: string): XmlValue => ({ 'd:href': href, 'd:status': NOT_FOUND });
