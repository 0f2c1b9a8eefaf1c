import dns from 'node:dns';
import type { LookupFunction } from 'node:net';

/** Raised by the lookup when a host name leads to an address the server must not visit. */
export class NonPublicAddressError extends Error {
  override name = 'NonPublicAddressError';
}

/**
 * The DNS lookup of a page fetch: it resolves the name and refuses it when any of its addresses
 * is not public, and the connection is then made to the address it returns, so that no second
 * lookup (DNS rebinding) can send the fetch elsewhere.
 */
export function guardedLookup(mayVisit: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((one) => !mayVisit(one.address));
      if (refused) return callback(new NonPublicAddressError(`${hostname} is at ${refused.address}`), '', 0);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}
