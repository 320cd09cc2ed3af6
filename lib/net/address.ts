// Which IP addresses an outbound request may reach: public unicast only, so a URL given by an
// engine or a user can never make the server talk to itself or its private network.
//
// Classification is ipaddr.js's `range()`. The only range name allowed is "unicast" (its name
// for "none of its special-purpose ranges"). Everything else is refused:
//   IPv4: unspecified (0/8), broadcast, multicast, linkLocal (169.254/16, cloud metadata),
//         loopback, carrierGradeNat (100.64/10), private (RFC 1918), reserved (192.0.0/24,
//         documentation, 192.88.99/24, benchmarking 198.18/15, 240/4), as112, amt.
//   IPv6: unspecified, linkLocal, multicast, loopback, uniqueLocal (fc00::/7),
//         deprecatedSiteLocal (fec0::/10), discard, rfc6145, rfc6052 (NAT64 64:ff9b::/96 and
//         64:ff9b:1::/48, whatever v4 they embed), 6to4, teredo, benchmarking, amt, as112v6,
//         orchid, drone ids, segmentRouting, reserved (2001::/23, documentation, 3fff::/20).
// Two IPv6 forms carry an IPv4 address that is what the kernel actually reaches: IPv4-mapped
// (::ffff:a.b.c.d, ipaddr.js "ipv4Mapped") and IPv4-compatible (::a.b.c.d, deprecated, which
// ipaddr.js calls "unicast"); both are judged by the IPv4 address inside them. A v6 "unicast"
// outside 2000::/3 (global unicast) is unassigned by IANA and refused too.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export interface AddressPolicy {
  /** Tests and the simulated engines only: also allow 127.0.0.0/8 and ::1 (and their v6 forms). */
  allowLoopback?: boolean;
}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parse("2000::");

/** The IPv4 address an IPv4-mapped or IPv4-compatible IPv6 address stands for. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const [a, b, c, d, e, f, g = 0, h = 0] = address.parts;
  if (a !== 0 || b !== 0 || c !== 0 || d !== 0 || e !== 0) return null;
  // ::a.b.c.d: :: and ::1 are the v6 unspecified and loopback addresses, not v4 forms.
  const compatible = f === 0 && address.range() === "unicast";
  if (f !== 0xffff && !compatible) return null;
  return new ipaddr.IPv4([g >> 8, g & 0xff, h >> 8, h & 0xff]);
}

/** The range name that decides: the embedded v4's for v4-in-v6 forms. */
function classify(ip: string): { kind: "ipv4" | "ipv6"; range: string; address: ipaddr.IPv4 | ipaddr.IPv6 } | null {
  // Node's parser first: it accepts only the canonical dotted quad and real IPv6 text, so a
  // spelling ipaddr.js reads leniently (octal, hex, short forms) can never be classified here.
  if (isIP(ip) === 0) return null;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip);
  } catch {
    return null;
  }
  if (address.kind() === "ipv6") {
    const v4 = embeddedV4(address as ipaddr.IPv6);
    if (v4) return { kind: "ipv4", range: v4.range(), address: v4 };
  }
  return { kind: address.kind(), range: address.range(), address };
}

/** Whether a resolved address may be connected to. Anything unparseable is refused. */
export function isAllowedAddress(ip: string, policy: AddressPolicy = {}): boolean {
  const found = classify(ip);
  if (!found) return false;
  if (found.range === "loopback") return policy.allowLoopback === true;
  if (found.range !== "unicast") return false;
  if (found.kind === "ipv6") return found.address.match(GLOBAL_UNICAST_V6, 3);
  return true;
}
