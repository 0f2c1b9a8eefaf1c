import ipaddr from 'ipaddr.js';

/** IPv6's global unicast block: anything outside it (IPv4-compatible `::a.b.c.d`, ULA, site-local…) is not the internet's. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an address is on the public internet, where the server may fetch a page: not loopback,
 * private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with the clouds' metadata
 * service, fe80::/10), CGNAT (100.64/10), unspecified (0.0.0.0/8, ::), multicast, broadcast,
 * reserved or documentation ranges, nor an IPv6 form that carries an IPv4 address (mapped, NAT64,
 * 6to4, Teredo). ipaddr.js names each special range; only its plain `unicast` is public.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // `::ffff:127.0.0.1` is 127.0.0.1.
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}
