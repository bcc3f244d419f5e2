import { describe, expect, test } from "bun:test";
import { assignVariant, shopperOf } from "../src/modules/experiments/assignment.ts";

describe("experiment assignment", () => {
  test("over 100,000 shoppers each variant gets its share, within half a percentage point", () => {
    const shares = [50, 30, 20];
    const counts = [0, 0, 0];
    for (let i = 0; i < 100_000; i++) counts[assignVariant("exp-1", `session-${i}`, shares)]!++;
    counts.forEach((n, i) => {
      expect(Math.abs(n / 1000 - shares[i]!)).toBeLessThan(0.5);
    });
  });

  test("a shopper's variant never changes, and does not follow them into another experiment", () => {
    const shares = [50, 50];
    const first = Array.from({ length: 10_000 }, (_, i) => assignVariant("exp-a", `user-${i}`, shares));
    for (let round = 0; round < 3; round++)
      expect(Array.from({ length: 10_000 }, (_, i) => assignVariant("exp-a", `user-${i}`, shares))).toEqual(first);
    const other = Array.from({ length: 10_000 }, (_, i) => assignVariant("exp-b", `user-${i}`, shares));
    const same = other.filter((v, i) => v === first[i]).length;
    // Independent experiments agree about half the time (5,000 give or take 50).
    expect(Math.abs(same - 5_000)).toBeLessThan(250);
  });

  test("a variant with no share gets nobody; the user id wins over the session id", () => {
    for (let i = 0; i < 1_000; i++) expect(assignVariant("exp-1", `s${i}`, [0, 100])).toBe(1);
    expect(shopperOf({ userId: "u1", sessionId: "s1" })).toBe("u1");
    expect(shopperOf({ userId: "", sessionId: "s1" })).toBe("s1");
    expect(shopperOf({})).toBeNull();
  });
});
