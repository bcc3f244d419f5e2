import { Rng } from "../../../demo-store/src/catalog/seeded-random.ts";

/* Malformed request bodies: valid documents with one part broken, and text that is not JSON at all. */

const WEIRD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  "",
  " ",
  "x".repeat(70_000),
  "\u0000\u0001",
  "é😀\u202e",
  "<img src=x onerror=alert(1)>",
  [],
  [null],
  [[[]]],
  {},
  { __proto__: { polluted: true } },
  { constructor: { prototype: {} } },
  "1e309",
  "NaN",
  "InStock ",
];

const RAW_BODIES = [
  "",
  " ",
  "{",
  "}",
  "[",
  "]",
  "{]",
  "[}",
  '{"id":',
  '{"id":"1",}',
  "[1,2,",
  "nul",
  "tru",
  '"just a string"',
  "42",
  "null",
  "\u0000",
  "\xff\xfe",
  '{"a":"\\ud800"}',
  "[".repeat(5000) + "]".repeat(5000),
  '{"id":"1","name":"x"}garbage',
  "{'id':'1'}",
];

function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  // A field "under" a string or number: break the parent itself instead.
  if (node === null || typeof node !== "object") return setAt(root, path.slice(0, -1), value);
  node[path[path.length - 1]!] = value;
  return copy;
}

/** `count` bodies (as strings) derived from `valid` documents, deterministic for a seed. */
export function malformedBodies(valid: unknown[], count: number, seed: number): string[] {
  const rng = new Rng(seed);
  const random = () => rng.next();
  const pick = <T>(xs: readonly T[]) => rng.pick(xs);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.1) {
      out.push(pick(RAW_BODIES));
      continue;
    }
    const doc = pick(valid);
    const path = pick(paths(doc));
    let broken: unknown;
    if (roll < 0.75) broken = setAt(doc, path, pick(WEIRD_VALUES));
    else if (roll < 0.85) broken = setAt(doc, [...path, "unexpectedField"], "x");
    else if (roll < 0.95)
      broken = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, j) => (j === 0 ? setAt(doc, path, pick(WEIRD_VALUES)) : doc));
    else {
      const text = JSON.stringify(doc);
      out.push(text.slice(0, Math.floor(random() * text.length)));
      continue;
    }
    out.push(JSON.stringify(broken) ?? "undefined");
  }
  return out;
}
