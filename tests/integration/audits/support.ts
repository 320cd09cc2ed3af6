// Local servers and an offline resolver for the audit fetch tests.
import { lookup, type LookupAddress } from "node:dns";
import { createServer, type RequestListener, type Server } from "node:http";
import { isIP, type AddressInfo } from "node:net";
import type { ResolveHost } from "@/lib/net/safe-fetch";

export type Listening = { server: Server; port: number; close: () => Promise<void> };

export async function listen(handler: RequestListener, host = "127.0.0.1", port = 0): Promise<Listening> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, ipv6Only: host.includes(":") }, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Names mapped to addresses without DNS (each entry a list, or a function for answers that
 * change between lookups); any other name goes to the system resolver (/etc/hosts: localhost).
 */
export function resolverFor(names: Record<string, string[] | (() => string[])>): ResolveHost {
  return (hostname) => {
    const entry = names[hostname.toLowerCase()];
    if (entry === undefined) {
      return new Promise<LookupAddress[]>((resolve, reject) => lookup(hostname, { all: true }, (e, a) => (e ? reject(e) : resolve(a))));
    }
    const addresses = typeof entry === "function" ? entry() : entry;
    return Promise.resolve(addresses.map((address) => ({ address, family: isIP(address) })));
  };
}
