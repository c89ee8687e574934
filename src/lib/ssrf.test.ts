import { describe, expect, it } from "vitest";
import { assertPublicHost, BlockedAddressError, guardedLookup, isPublicAddress } from "./ssrf.ts";

describe("ssrf", () => {
  it("classifies addresses", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "192.168.0.1",
      "172.16.5.5",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "fc00::1",
      "0.0.0.0",
      "::ffff:127.0.0.1",
      "100.64.0.1",
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) expect(isPublicAddress(a), a).toBe(true);
  });
  it("refuses a hostname when any resolved address is private", async () => {
    const lookup = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    await expect(assertPublicHost("evil.example", lookup)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(assertPublicHost("[::1]")).rejects.toBeInstanceOf(BlockedAddressError);
    expect(await assertPublicHost("ok.example", async () => [{ address: "8.8.8.8", family: 4 }])).toEqual([
      "8.8.8.8",
    ]);
  });
  it("re-checks at connect time: the socket lookup refuses loopback unless allowed", async () => {
    const lookup = (allow: boolean) =>
      new Promise<string>((resolve) =>
        guardedLookup(allow)("localhost", { family: 4 }, (err, address) =>
          resolve(err ? err.name : String(address)),
        ),
      );
    expect(await lookup(false)).toBe("BlockedAddressError");
    expect(await lookup(true)).toBe("127.0.0.1");
  });
});
