// Which IP addresses an outbound request may reach: public unicast only, so a URL given by an
// engine or a user can never make the server talk to itself or its private network.
import { isIP } from "node:net";

type Range = [bigint, number];

function v4ToBig(ip: string): bigint | null {
  const parts = ip.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function v6ToBig(ip: string): bigint | null {
  let text = ip.split("%")[0]!.toLowerCase();
  // A trailing dotted quad (::ffff:1.2.3.4) is the last 32 bits.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const v4 = v4ToBig(quad[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, -quad[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

const cidr4 = (ip: string, bits: number): Range => [v4ToBig(ip)!, bits];
const cidr6 = (ip: string, bits: number): Range => [v6ToBig(ip)!, bits];

// IANA special-purpose registries: nothing here is a public web server.
const BLOCKED_V4: Range[] = [
  cidr4("0.0.0.0", 8),
  cidr4("10.0.0.0", 8),
  cidr4("100.64.0.0", 10),
  cidr4("127.0.0.0", 8),
  cidr4("169.254.0.0", 16),
  cidr4("172.16.0.0", 12),
  cidr4("192.0.0.0", 24),
  cidr4("192.0.2.0", 24),
  cidr4("192.88.99.0", 24),
  cidr4("192.168.0.0", 16),
  cidr4("198.18.0.0", 15),
  cidr4("198.51.100.0", 24),
  cidr4("203.0.113.0", 24),
  cidr4("224.0.0.0", 4),
  cidr4("240.0.0.0", 4),
];

const BLOCKED_V6: Range[] = [
  cidr6("::", 128),
  cidr6("::1", 128),
  cidr6("100::", 64),
  cidr6("2001::", 23),
  cidr6("2001:db8::", 32),
  cidr6("2002::", 16), // 6to4 embeds an IPv4 address that may be private
  cidr6("fc00::", 7),
  cidr6("fe80::", 10),
  cidr6("fec0::", 10),
  cidr6("ff00::", 8),
];

function inRange(value: bigint, [base, bits]: Range, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === base >> shift;
}

function isLoopback(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return inRange(v4ToBig(ip)!, cidr4("127.0.0.0", 8), 32);
  if (family === 6) {
    const v = v6ToBig(ip);
    if (v === null) return false;
    const embedded = embeddedV4(v);
    return v === 1n || (embedded !== null && inRange(embedded, cidr4("127.0.0.0", 8), 32));
  }
  return false;
}

/** The IPv4 address inside an IPv4-mapped, IPv4-compatible or NAT64 IPv6 address. */
function embeddedV4(v: bigint): bigint | null {
  const low = v & 0xffffffffn;
  if (v >> 32n === 0xffffn) return low; // ::ffff:a.b.c.d
  if (v >> 32n === 0n && low > 1n) return low; // ::a.b.c.d (deprecated)
  if (v >> 32n === 0x0064ff9b0000000000000000n) return low; // 64:ff9b::/96
  return null;
}

export interface AddressPolicy {
  /** Tests and the simulated engines only: also allow 127.0.0.0/8 and ::1. */
  allowLoopback?: boolean;
}

/** Whether a resolved address may be connected to. Anything unparseable is refused. */
export function isAllowedAddress(ip: string, policy: AddressPolicy = {}): boolean {
  if (policy.allowLoopback && isLoopback(ip)) return true;
  const family = isIP(ip);
  if (family === 4) {
    const v = v4ToBig(ip)!;
    return !BLOCKED_V4.some((r) => inRange(v, r, 32));
  }
  if (family === 6) {
    const v = v6ToBig(ip);
    if (v === null) return false;
    const embedded = embeddedV4(v);
    if (embedded !== null) return !BLOCKED_V4.some((r) => inRange(embedded, r, 32));
    return !BLOCKED_V6.some((r) => inRange(v, r, 128));
  }
  return false;
}
