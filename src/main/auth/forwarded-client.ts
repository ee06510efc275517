/**
 * The client behind a trusted proxy (`--trusted-proxies`). A proxy or load balancer in front of svc
 * hides every client's address behind its own, so callers without an API key would all count as the
 * proxy's host and share one caller's share of the document-task threads. For a call whose peer is a
 * trusted proxy, the caller is the address the proxies recorded in `x-forwarded-for`: read from the
 * right (the entry the nearest proxy added), past every trusted proxy, the first address that is not
 * one. A call from any other peer counts as its own address: nothing a client sends changes whom it
 * counts as unless a proxy the operator named stands in front of it.
 */
import { BlockList, isIP } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { bindClientHost, peerHost } from './principal';

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

/** Binds the forwarded client of calls from trusted proxies to the metadata the handler gets (see principal.ts callerOf). */
export function createForwardedClientInterceptor(trusted: BlockList): grpc.ServerInterceptor {
  return (_descriptor, call) => {
    const listener = new grpc.ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const client = forwardedClient(trusted, call.getPeer(), metadata.get(FORWARDED_FOR));
        if (client !== undefined) bindClientHost(metadata, client);
        next(metadata);
      })
      .build();
    return new grpc.ServerInterceptingCall(call, { start: (next) => next(listener) });
  };
}

function isTrusted(trusted: BlockList, address: string): boolean {
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
