// Which addresses the outbound fetcher may reach (ipaddr.js classification), and the
// AUDIT_ALLOW_HOSTS list that lets named hosts through.
import { describe, expect, it } from "vitest";
import { allowHostProblem, parseConfig } from "@/lib/config/env";
import { isAllowedAddress } from "@/lib/net/address";
import { isAllowListedHost } from "@/lib/net/safe-fetch";

describe("isAllowedAddress", () => {
  it.each([
    // IPv4
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified (0/8)"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.254", "CGNAT"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.254", "benchmarking"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["240.0.0.1", "reserved"],
    ["192.175.48.1", "AS112"],
    ["192.52.193.1", "AMT"],
    // IPv6
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with a zone"],
    ["fd00::1", "unique local"],
    ["fc00::1", "unique local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["100::1", "discard"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (RFC 9637)"],
    ["2001::1", "Teredo"],
    ["2001:2::1", "benchmarking"],
    ["2002:7f00:1::1", "6to4"],
    ["2002:808:808::1", "6to4, even of a public v4"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b::808:808", "NAT64, even of a public v4"],
    ["64:ff9b:1::a00:1", "local-use NAT64"],
    ["4000::1", "outside 2000::/3"],
    ["5f00::1", "segment routing"],
    // v4 inside v6
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::a00:1", "IPv4-compatible private"],
    ["::ffff:0:7f00:1", "IPv4-translated"],
    // not canonical: Node's parser refuses them before ipaddr.js's lenient one sees them
    ["127.1", "short form"],
    ["0x7f000001", "hex"],
    ["2130706433", "decimal"],
    ["0177.0.0.1", "octal"],
    ["010.0.0.1", "leading zero"],
    ["not-an-ip", "not an address"],
    ["", "empty"],
  ])("refuses %s (%s)", (ip) => {
    expect(isAllowedAddress(ip)).toBe(false);
  });

  it.each([
    ["8.8.8.8"],
    ["93.184.216.34"],
    ["1.1.1.1"],
    ["100.63.255.255"],
    ["100.128.0.1"],
    ["172.15.255.255"],
    ["172.32.0.1"],
    ["198.17.255.255"],
    ["2606:4700:4700::1111"],
    ["2a00:1450:4001:80b::200e"],
    ["::ffff:8.8.8.8"],
    ["::8.8.8.8"],
  ])("allows public unicast %s", (ip) => {
    expect(isAllowedAddress(ip)).toBe(true);
  });

  it("lets loopback, and only loopback, through with the test-only allowance", () => {
    for (const ip of ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1", "::127.0.0.1"]) expect(isAllowedAddress(ip, { allowLoopback: true }), ip).toBe(true);
    for (const ip of ["10.0.0.1", "169.254.169.254", "0.0.0.0", "::", "fd00::1", "64:ff9b::7f00:1"]) expect(isAllowedAddress(ip, { allowLoopback: true }), ip).toBe(false);
  });
});

describe("allow-listed hosts", () => {
  const url = (raw: string) => new URL(raw);

  it("matches a bare host on every port, host:port on that port only (default ports spelled out)", () => {
    expect(isAllowListedHost(url("http://intranet.example:8080/x"), ["intranet.example"])).toBe(true);
    expect(isAllowListedHost(url("http://intranet.example/x"), ["intranet.example:80"])).toBe(true);
    expect(isAllowListedHost(url("https://intranet.example/x"), ["intranet.example:443"])).toBe(true);
    expect(isAllowListedHost(url("https://intranet.example/x"), ["intranet.example:80"])).toBe(false);
    expect(isAllowListedHost(url("http://127.0.0.1:4000/"), ["127.0.0.1:4001"])).toBe(false);
    expect(isAllowListedHost(url("http://[::1]:4000/"), ["[::1]:4000"])).toBe(true);
    expect(isAllowListedHost(url("http://INTRANET.example/"), ["intranet.example"])).toBe(true);
    expect(isAllowListedHost(url("http://sub.intranet.example/"), ["intranet.example"])).toBe(false);
    expect(isAllowListedHost(url("http://intranet.example/"), [])).toBe(false);
  });

  it("AUDIT_ALLOW_HOSTS: empty by default, trimmed and lower-cased", () => {
    expect(parseConfig({}).AUDIT_ALLOW_HOSTS).toEqual([]);
    expect(parseConfig({ AUDIT_ALLOW_HOSTS: " Intranet.Example , 10.0.0.5:8080,,[fd00::5],[::1]:3000 " }).AUDIT_ALLOW_HOSTS).toEqual([
      "intranet.example",
      "10.0.0.5:8080",
      "[fd00::5]",
      "[::1]:3000",
    ]);
  });

  it.each([
    ["http://intranet.example", /not a host or host:port/],
    ["intranet.example/path", /not a host or host:port/],
    ["user@intranet.example", /not a host or host:port/],
    ["two words", /not a host or host:port/],
    ["intranet.example:0", /port must be 1 to 65535/],
    ["intranet.example:70000", /port must be 1 to 65535/],
    ["127.1", /write the host as 127\.0\.0\.1/],
    ["[::ffff:127.0.0.1]", /write the host as \[::ffff:7f00:1\]/],
  ])("AUDIT_ALLOW_HOSTS refuses %s with a message naming the variable", (value, message) => {
    expect(allowHostProblem(value)).toMatch(message);
    expect(() => parseConfig({ AUDIT_ALLOW_HOSTS: `ok.example,${value}` })).toThrow(/AUDIT_ALLOW_HOSTS/);
  });
});
