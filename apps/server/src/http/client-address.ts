import { BlockList, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The names `TRUST_PROXY` takes beside addresses and ranges, as Express and fastify know them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Why one `TRUST_PROXY` entry is not an address, a CIDR range or a range's name; undefined when it is. */
export function trustedProxyEntryProblem(entry: string): string | undefined {
  if (entry in NAMED_RANGES || isIP(entry) !== 0) return undefined;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  const bits = Number(prefix);
  if (family !== 0 && rest.length === 0 && /^\d{1,3}$/.test(prefix ?? '') && bits <= (family === 4 ? 32 : 128)) return undefined;
  return `"${entry}" is not an address, a CIDR range (10.0.0.0/8) or loopback, linklocal or uniquelocal`;
}

/** `::ffff:10.0.0.1` as the IPv4 address it is, so a range written in IPv4 matches it. */
function plainAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return { address: mapped, family: 'ipv4' };
  const family = isIP(address);
  return family === 0 ? undefined : { address, family: family === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * Whether a peer is one of the reverse proxies `TRUST_PROXY` lists: only their `X-Forwarded-For`
 * and `X-Real-IP` are believed, as anyone else can write those headers. An empty list trusts none.
 */
export function trustedProxies(entries: readonly string[]): (address: string | undefined) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries.flatMap((name) => NAMED_RANGES[name] ?? [name])) {
    const [address = '', prefix] = entry.split('/');
    const plain = plainAddress(address);
    if (plain === undefined) continue;
    if (prefix === undefined) list.addAddress(plain.address, plain.family);
    else list.addSubnet(plain.address, Number(prefix), plain.family);
  }
  return (address) => {
    const plain = address === undefined ? undefined : plainAddress(address);
    return plain !== undefined && list.check(plain.address, plain.family);
  };
}

/**
 * Fastify's `trustProxy`: with it `request.ip` is the right-most address in `X-Forwarded-For` that
 * is not a trusted proxy (the client as the first trusted proxy saw it; what the client wrote
 * further left is not believed), and the peer itself when the peer is not trusted. Without
 * `TRUST_PROXY`, fastify never reads the header at all.
 */
export function trustProxyOption(entries: readonly string[]): ((address: string) => boolean) | false {
  return entries.length === 0 ? false : trustedProxies(entries);
}

/**
 * nginx's `proxy_set_header X-Real-IP $remote_addr` without `X-Forwarded-For`: from a trusted peer,
 * that address is the client's. Written as the forwarded address before anything reads
 * `request.ip`, so fastify's one rule (above) decides the rest.
 */
export function believeRealIpHeader(app: FastifyInstance, entries: readonly string[]): void {
  if (entries.length === 0) return;
  const isTrusted = trustedProxies(entries);
  app.addHook('onRequest', async (request) => {
    const headers = request.raw.headers;
    const realIp = headers['x-real-ip'];
    if (headers['x-forwarded-for'] !== undefined || typeof realIp !== 'string') return;
    if (isIP(realIp.trim()) === 0 || !isTrusted(request.raw.socket.remoteAddress)) return;
    headers['x-forwarded-for'] = realIp.trim();
  });
}
