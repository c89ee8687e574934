import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** Thrown when a webhook target resolves to an address we refuse to call (SSRF guard). */
export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`refused: ${host} resolves to non-public address ${address}`);
    this.name = "BlockedAddressError";
  }
}

/** True only for globally routable unicast addresses (IPv4-mapped IPv6 is judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === "unicast";
}

type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;

const defaultLookupAll: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Resolves a hostname and checks every address; throws BlockedAddressError on the first non-public one. */
export async function assertPublicHost(
  host: string,
  lookupAll: LookupAll = defaultLookupAll,
): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = ipaddr.isValid(bare) ? [{ address: bare, family: 0 }] : await lookupAll(bare);
  if (addresses.length === 0) throw new BlockedAddressError(host, "(none)");
  for (const { address } of addresses) {
    if (!isPublicAddress(address)) throw new BlockedAddressError(host, address);
  }
  return addresses.map((a) => a.address);
}

/**
 * A net/http `lookup` that re-checks at connect time, so a DNS answer that changes between
 * our check and the connection (rebinding) cannot reach a private address.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !isPublicAddress(a.address));
      if (bad && !allowPrivate) return callback(new BlockedAddressError(hostname, bad.address), "", 0);
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new BlockedAddressError(hostname, "(none)"), "", 0);
      callback(null, first.address, first.family);
    });
  };
}
