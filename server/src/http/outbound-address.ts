import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/*
 * Where the service may connect on behalf of a store (webhook receivers, product images): public unicast
 * addresses only, unless the operator allows private networks (tests, a demo serving its own images). A caller
 * resolves the host once with resolvePublic() and connects to the address it returned (resolve, then pin), so a
 * name that answers differently on a second lookup (DNS rebinding) cannot lead anywhere unchecked.
 */

/** The host resolved, but an address it has is not a public one. */
export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a loopback, private, link-local or otherwise non-public address`);
    this.name = "RefusedAddressError";
  }
}

/** The host has no address (unknown name, DNS failure). */
export class UnresolvedHostError extends Error {
  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(`${host} does not resolve: ${reason}`);
    this.name = "UnresolvedHostError";
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

function ipv4Bytes(ip: string): number[] {
  return ip.split(".").map(Number);
}

/** The 16 bytes of a valid IPv6 address (with "::" and a trailing dotted IPv4 part; a zone id is dropped). */
function ipv6Bytes(ip: string): number[] {
  let text = ip.split("%")[0]!.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...ipv4Bytes(dotted[1]!));
    text = text.slice(0, -dotted[1]!.length) + "0:0";
  }
  const [head, rest] = text.includes("::") ? text.split("::") : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(":").filter((g) => g !== "") : []);
  const before = groups(head);
  const after = groups(rest);
  const missing = 8 - before.length - after.length;
  const all = [...before, ...(rest !== undefined ? Array<string>(missing).fill("0") : []), ...after].map((g) => parseInt(g, 16));
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inV4(b: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < 4 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((b[i]! & mask) !== (prefix[i]! & mask)) return false;
  }
  return true;
}

/** Ranges that are not public unicast (RFC 6890 special-purpose registry, plus multicast and reserved). */
const V4_REFUSED: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this network", incl. 0.0.0.0
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // carrier-grade NAT (also Alibaba's metadata address 100.100.100.200)
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, incl. the cloud metadata address 169.254.169.254
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, incl. broadcast 255.255.255.255
];

function isPublicV4(b: number[]): boolean {
  return !V4_REFUSED.some(([prefix, bits]) => inV4(b, prefix, bits));
}

function isPublicV6(b: number[]): boolean {
  const zeroes = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address decides.
  if (zeroes(0, 10) && b[10] === 0xff && b[11] === 0xff) return isPublicV4(b.slice(12));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeroes(4, 12)) return isPublicV4(b.slice(12));
  // 6to4 (2002::/16) carries an IPv4 address in bytes 2..5.
  if (b[0] === 0x20 && b[1] === 0x02) return isPublicV4(b.slice(2, 6));
  // Only global unicast (2000::/3) is public: this refuses ::, ::1, IPv4-compatible ::/96, 64:ff9b:1::/48,
  // 100::/64, fc00::/7 (unique local, incl. AWS's fd00:ec2::254), fe80::/10, fec0::/10 and ff00::/8 (multicast).
  if ((b[0]! & 0xe0) !== 0x20) return false;
  // 2001::/23 (IETF protocol assignments: Teredo, ORCHID, benchmarking...) and 2001:db8::/32 (documentation).
  if (b[0] === 0x20 && b[1] === 0x01 && b[2]! < 0x02) return false;
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false;
  return true;
}

/** Whether an IP address (v4 or v6 text) is a public unicast address. Anything that is not an IP is not. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const version = isIP(bare.split("%")[0]!);
  if (version === 4) return isPublicV4(ipv4Bytes(bare));
  if (version === 6) return isPublicV6(ipv6Bytes(bare));
  return false;
}

/**
 * Resolves a URL's host name (or takes its IP literal; brackets allowed) to the address to connect to (an IPv4
 * one when it has one). Every address the name has must be public (unless `allowPrivate`), so which one a
 * client would pick does not matter. Throws UnresolvedHostError or RefusedAddressError.
 */
export async function resolvePublic(host: string, allowPrivate: boolean): Promise<ResolvedAddress> {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const literal = isIP(bare);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: bare, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } catch (error) {
      throw new UnresolvedHostError(bare, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
    }
    if (addresses.length === 0) throw new UnresolvedHostError(bare, "no addresses");
  }
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) throw new RefusedAddressError(bare, refused.address);
  }
  // IPv4 first: a receiver listening on IPv4 only (common for test servers on "localhost") is still reached.
  return addresses.find((a) => a.family === 4) ?? addresses[0]!;
}
