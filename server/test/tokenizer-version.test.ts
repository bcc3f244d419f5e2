import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { TOKENIZER_VERSION } from "../src/engine/sqlite/field-tokens.ts";

/*
 * The embedded engine reuses tokens it stored only under the tokenizer version they were made with. This holds the
 * version to the tokenizer's sources: a change to them fails here until TOKENIZER_VERSION is bumped and the new
 * hash recorded beside it, so stored tokens are never read with another tokenizer than the one that made them.
 */

const SOURCES = ["../src/engine/sqlite/field-tokens.ts", "../src/text/normalize.ts", "../src/text/query-limits.ts"];
/** The sources' hash at each version (the version line itself left out, so bumping it changes nothing here). */
const RECORDED: Record<number, string> = {
  1: "6kXqApJ9qM-es3mH-q93mJ8_5EdLVr9fwkb6b5OOx0Q",
  // Reformatted by Biome: no token changes, but the sources are what the version names.
  2: "TJnZw9z_TRxhyb-pPwoy4NTWHAtoXT8F1JC4GEerPv8",
};

test("the tokenizer's version names its sources as they are", () => {
  const text = SOURCES.map((file) =>
    readFileSync(new URL(file, import.meta.url), "utf8").replace(/^export const TOKENIZER_VERSION = \d+;$/m, ""),
  ).join("\0");
  const hash = createHash("sha256").update(text).digest("base64url");
  expect(hash, `the tokenizer's sources changed: bump TOKENIZER_VERSION and record ${hash} beside it`).toBe(RECORDED[TOKENIZER_VERSION]!);
});
