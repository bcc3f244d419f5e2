import { describe, expect, test } from "bun:test";
import { isPublicAddress, RefusedAddressError, resolvePublic, UnresolvedHostError } from "../src/http/outbound-address.ts";

describe("isPublicAddress", () => {
  const refused = [
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "127.0.0.1",
    "127.255.0.9",
    "169.254.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "100.100.100.200",
    "0.0.0.0",
    "0.1.2.3",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.10",
    "198.18.0.1",
    "::",
    "::1",
    "fc00::1",
    "fd00:ec2::254",
    "fdff:ffff::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "fec0::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a00:1",
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2001:db8::1",
    "100::1",
    "[::1]",
    "not an address",
    "",
  ];
  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.1.1",
    "2001:4860::8888",
    "2001:4860:4860::8888",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "[2001:4860::8888]",
  ];

  for (const ip of refused) test(`refuses ${JSON.stringify(ip)}`, () => expect(isPublicAddress(ip)).toBe(false));
  for (const ip of allowed) test(`allows ${ip}`, () => expect(isPublicAddress(ip)).toBe(true));
});

describe("resolvePublic", () => {
  test("an IP literal is taken as it is, and checked", async () => {
    expect(await resolvePublic("8.8.8.8", false)).toEqual({ address: "8.8.8.8", family: 4 });
    expect(await resolvePublic("[2001:4860::8888]", false)).toEqual({ address: "2001:4860::8888", family: 6 });
    await expect(resolvePublic("127.0.0.1", false)).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(resolvePublic("[::1]", false)).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(resolvePublic("169.254.169.254", false)).rejects.toBeInstanceOf(RefusedAddressError);
  });

  test("a name is resolved, and refused when an address of it is not public", async () => {
    const error = await resolvePublic("localhost", false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect((error as RefusedAddressError).message).toContain("localhost resolves to");
  });

  test("private networks can be allowed (tests, a demo on one machine)", async () => {
    expect((await resolvePublic("127.0.0.1", true)).address).toBe("127.0.0.1");
    const local = await resolvePublic("localhost", true);
    expect(["127.0.0.1", "::1"]).toContain(local.address);
  });

  test("a name that does not resolve", async () => {
    await expect(resolvePublic("no-such-host.invalid", true)).rejects.toBeInstanceOf(UnresolvedHostError);
  });
});
