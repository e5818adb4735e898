import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Outbound requests to URLs that come from settings or third parties (SSRF guard): only
 * public unicast addresses, checked on the address the socket really connects to, so a name
 * that resolves (or re-resolves, DNS rebinding) to a private address is refused too.
 */

// IANA special-purpose ranges that must never be reached from here: loopback, private,
// link-local (cloud metadata at 169.254.169.254), shared/CGNAT, multicast, reserved and
// documentation. BlockList also matches IPv4-mapped IPv6 (::ffff:10.0.0.1) against the v4 rules.
const notPublic = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  notPublic.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  notPublic.addSubnet(prefix, bits, 'ipv6');

/** True for a public unicast IP address; false for anything else, including non-addresses. */
export function isPublicAddress(address: string): boolean {
  const version = net.isIP(address);
  if (version === 0) return false;
  return !notPublic.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** Names that always mean this machine (RFC 6761), whatever a resolver says. */
const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

/**
 * For a URL handed to the browser (a preview or artwork): https, and not a literal private
 * address or localhost. The browser resolves other names itself, with its own view of the
 * network, so the server does not resolve them.
 */
export function isPublicHttpsUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host) !== 0) return isPublicAddress(host);
  return host !== '' && !isLocalhostName(host);
}

export class OutboundRefusedError extends Error {
  readonly code = 'ERR_OUTBOUND_REFUSED';
}

type Resolved = { address: string; family: number };
/** Resolves a host name to all its addresses (dns.lookup by default; tests inject one). */
export type Resolve = (hostname: string) => Promise<Resolved[]>;

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true });

export type OutboundOptions = {
  /**
   * Lets loopback and private targets through (tests and development run fake providers on
   * 127.0.0.1): a setting such as CATALOGUE_ALLOW_PRIVATE, never on by default.
   */
  allowPrivate: boolean;
  resolve?: Resolve;
};

/**
 * A `lookup` for net/tls: the connection goes to exactly the addresses checked here; a name
 * with any non-public address is refused (a mixed answer is how rebinding is attempted).
 */
export function guardedLookup({ allowPrivate, resolve = systemResolve }: OutboundOptions) {
  return (
    hostname: string,
    options: dns.LookupOptions,
    callback: (
      err: NodeJS.ErrnoException | null,
      address: string | dns.LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    resolve(hostname).then(
      (all) => {
        const wanted = options.family
          ? all.filter((a) => a.family === options.family || options.family === `IPv${a.family}`)
          : all;
        const refused = allowPrivate ? undefined : all.find((a) => !isPublicAddress(a.address));
        if (refused)
          return callback(
            new OutboundRefusedError(`${hostname} resolves to a non-public address`),
            '',
          );
        if (wanted.length === 0)
          return callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            '',
          );
        if (options.all) return callback(null, wanted);
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

export type OutboundResponse = { status: number; body: Buffer };

export type OutboundClient = {
  /**
   * One GET. Redirects are never followed (a 3xx is returned like any status, and callers
   * treat it as a failure): a redirect could name another host or a private one.
   */
  get(
    url: URL,
    init: { headers?: Record<string, string>; signal: AbortSignal },
  ): Promise<OutboundResponse>;
  /** One POST of `body`, under the same rules (no redirects followed). */
  post(
    url: URL,
    init: { headers?: Record<string, string>; body: string | Buffer; signal: AbortSignal },
  ): Promise<OutboundResponse>;
};

/** Bodies larger than this are refused: the callers expect small JSON answers. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** An http(s) client whose every connection passes the guard. */
export function createOutboundClient(options: OutboundOptions): OutboundClient {
  const lookup = guardedLookup(options);
  // Own agents: a kept-alive socket is never shared with a client that checks differently.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, lookup } as https.AgentOptions),
  };
  const send = async (
    method: 'GET' | 'POST',
    url: URL,
    {
      headers = {},
      body,
      signal,
    }: { headers?: Record<string, string>; body?: string | Buffer; signal: AbortSignal },
  ): Promise<OutboundResponse> => {
    const protocol = url.protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new OutboundRefusedError(`${protocol} URLs are not fetched`);
    // A literal address never reaches `lookup` (net connects to it directly): check it here.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!options.allowPrivate && net.isIP(host) !== 0 && !isPublicAddress(host))
      throw new OutboundRefusedError(`${host} is not a public address`);
    const request = protocol === 'https:' ? https.request : http.request;
    return new Promise<OutboundResponse>((resolve, reject) => {
      const req = request(
        url,
        { method, headers, signal, agent: agents[protocol] },
        async (res) => {
          try {
            const chunks: Buffer[] = [];
            let size = 0;
            for await (const chunk of res as AsyncIterable<Buffer>) {
              size += chunk.length;
              if (size > MAX_BODY_BYTES) throw new Error('answer too large');
              chunks.push(chunk);
            }
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
          } catch (error) {
            res.destroy();
            reject(signal.aborted ? signal.reason : error);
          }
        },
      );
      req.on('error', (error) => reject(signal.aborted ? signal.reason : error));
      req.end(body);
    });
  };
  return {
    get: (url, init) => send('GET', url, init),
    post: (url, init) => send('POST', url, init),
  };
}
