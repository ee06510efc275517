/**
 * Which address a call comes from, for the caller it counts as (principal.ts `callerOf`): the host
 * of its peer, or, when the peer is a trusted proxy (`--trusted-proxies`), the client the proxy
 * forwards for. A proxy or load balancer in front of svc hides every client's address behind its
 * own, so callers without an API key would all count as the proxy's host and share one caller's
 * share of the document-task threads. For a call whose peer is a trusted proxy, the client is the
 * address the proxies recorded in `x-forwarded-for`: read from the right (the entry the nearest
 * proxy added), past every trusted proxy, the first address that is not one. A call from any other
 * peer counts as its own address: nothing a client sends changes whom it counts as unless a proxy
 * the operator named stands in front of it. Read only when a caller is asked for (intake,
 * comparisons, fixtures), never on the validation path.
 */
import { BlockList, isIP } from 'node:net';
import type { Metadata } from '@grpc/grpc-js';

const FORWARDED_FOR = 'x-forwarded-for';

interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Why an entry of `trustedProxies` is not an address or CIDR range; undefined when it is one. */
export function trustedProxyProblem(entry: string): string | undefined {
  return addressRange(entry) === undefined
    ? `trustedProxies: "${entry}" is not an IP address or CIDR range (127.0.0.1, 10.0.0.0/8, 2001:db8::/32)`
    : undefined;
}

/** The trusted proxies (entries trustedProxyProblem accepts) to match peers against; IPv4 ranges match IPv4-mapped IPv6 peers too. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const trusted = new BlockList();
  for (const entry of entries) {
    const range = addressRange(entry);
    if (range === undefined) throw new TypeError(trustedProxyProblem(entry));
    trusted.addSubnet(range.address, range.prefix, range.family);
  }
  return trusted;
}

function addressRange(entry: string): AddressRange | undefined {
  const [address = '', prefixText, ...rest] = entry.split('/');
  const version = isIP(address);
  const maxPrefix = version === 6 ? 128 : 32;
  if (version === 0 || rest.length > 0 || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) return undefined;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  return prefix <= maxPrefix ? { address, prefix, family: version === 6 ? 'ipv6' : 'ipv4' } : undefined;
}

/**
 * The client address of a call from `peer`, when the peer is a trusted proxy that says whom it
 * forwards for; undefined otherwise (the call counts as its peer). `forwardedFor` holds the header's
 * values in the order they arrived, each a comma-separated list, oldest hop first.
 */
export function forwardedClient(trusted: BlockList, peer: string, forwardedFor: readonly unknown[]): string | undefined {
  if (!isTrusted(trusted, peerHost(peer))) return undefined;
  const hops = forwardedFor.flatMap((value) => (typeof value === 'string' ? value.split(',') : []));
  for (let i = hops.length - 1; i >= 0; i--) {
    const address = hopAddress(hops[i]!);
    // A hop that is no address (`unknown`, an obfuscated name) ends the chain one can trust.
    if (address === undefined) return undefined;
    if (!isTrusted(trusted, address)) return address;
  }
  return undefined;
}

/**
 * The host a call counts as: the client a trusted proxy forwards for, else the peer's host.
 * `trustedProxies` undefined: no proxy is trusted.
 */
export function clientHost(peer: string, metadata: Metadata, trustedProxies: BlockList | undefined): string {
  return forwardedClientOf(peer, metadata, trustedProxies) ?? peerHost(peer);
}

/** The client a trusted proxy at `peer` forwards for (forwardedClient, from the call's metadata); undefined when none. */
export function forwardedClientOf(peer: string, metadata: Metadata, trustedProxies: BlockList | undefined): string | undefined {
  return trustedProxies === undefined ? undefined : forwardedClient(trustedProxies, peer, metadata.get(FORWARDED_FOR));
}

/**
 * The host of a gRPC peer string. grpc-js gives `<address>:<port>` with an IPv6 address unbracketed
 * (`::1:51234`), and `unknown` without an address (a Unix socket); C-core style `ipv4:`, `ipv6:[…]:`
 * and `unix:` forms are read too.
 */
export function peerHost(peer: string): string {
  if (peer.startsWith('unix:')) return peer;
  const address = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  const withPort = /^(.+):\d+$/.exec(address);
  return withPort && isIP(withPort[1]!) ? withPort[1]! : address;
}

/** Whether a bare address (no port) is one of the trusted proxies. */
export function isTrusted(trusted: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** One hop of the header: a bare address, or one with a port (`203.0.113.7:51234`, `[2001:db8::1]:443`). */
function hopAddress(hop: string): string | undefined {
  const text = hop.trim();
  if (isIP(text) !== 0) return text;
  const withPort = /^\[([^\]]+)\](?::\d+)?$|^([^:]+):\d+$/.exec(text);
  const host = withPort?.[1] ?? withPort?.[2];
  return host !== undefined && isIP(host) !== 0 ? host : undefined;
}
