/**
 * Posting an alarm webhook to a URL an enterprise administrator typed. The platform, not the
 * administrator, makes the request, from inside the deployment's network: left unguarded it
 * would let anyone with an application reach the cloud metadata service, the database or the
 * operations port (server-side request forgery). So, unless the deployment says its webhooks
 * go to an intranet (APPLICATION_WEBHOOK_ALLOW_PRIVATE=1), the address is checked when the
 * connection is made, after DNS, on every attempt: a name that resolves to a loopback,
 * private, link-local, carrier-grade NAT, multicast or reserved address is refused (checking
 * the URL's text alone would miss a name pointed at 127.0.0.1, or re-pointed after it was
 * saved). Redirects are not followed.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export class WebhookAddressError extends Error {}

/** True for an address a public webhook must not reach (anything but ordinary unicast). */
export function isNonPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 it names.
  return ipaddr.process(address).range() !== 'unicast';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function publicOnlyLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((a) => isNonPublicAddress(a.address));
    if (refused || addresses.length === 0) return callback(new WebhookAddressError(`refused: ${hostname} resolves to a non-public address (${refused?.address ?? 'none'})`), '');
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

export type WebhookPost = (url: string, init: { body: string; headers: Record<string, string> }) => Promise<{ status: number }>;

export function webhookPoster(opts: { allowPrivate: boolean; timeoutMs?: number }): WebhookPost {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return (target, init) =>
    new Promise((resolve, reject) => {
      const url = new URL(target);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // A literal address never goes through lookup: check it here.
      if (!opts.allowPrivate && net.isIP(host) && isNonPublicAddress(host)) {
        reject(new WebhookAddressError(`refused: ${host} is a non-public address`));
        return;
      }
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: 'POST',
          headers: { ...init.headers, 'content-length': Buffer.byteLength(init.body) },
          timeout: timeoutMs,
          ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup as unknown as net.LookupFunction }),
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(init.body);
    });
}

/** APPLICATION_WEBHOOK_ALLOW_PRIVATE=1: alarm webhooks may go to private and loopback addresses (an intranet deployment). */
export function readWebhookAllowPrivate(source: NodeJS.ProcessEnv = process.env): boolean {
  const value = source.APPLICATION_WEBHOOK_ALLOW_PRIVATE;
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(`APPLICATION_WEBHOOK_ALLOW_PRIVATE must be 0 or 1, got "${value}"`);
}
