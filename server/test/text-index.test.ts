import { expect, test } from "bun:test";
import { seededRandom } from "../../demo-store/src/catalog/seeded-random.ts";
import { TextIndex, type Clause } from "../src/engine/sqlite/text-index.ts";

/*
 * The TextIndex against the plainest reading of its rules, over random writes, rewrites and deletes: a clause
 * matches a document when one of its terms does; a token anywhere, a prefix of any token, a phrase as adjacent
 * tokens within one field.
 */

const WORDS = ["red", "dress", "t", "shirt", "tshirt", "blue", "jean", "denim", "dre", "shoe", "sho", "cotton"];

function randomColumns(random: () => number): string[] {
  return Array.from({ length: 3 }, () =>
    Array.from({ length: Math.floor(random() * 5) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" "),
  );
}

function plainMatch(docs: Map<number, string[]>, clauses: Clause[]): number[] {
  const matches = (columns: string[], clause: Clause) =>
    clause.some((term) =>
      columns.some((column) => {
        const tokens = column ? column.split(" ") : [];
        if ("phrase" in term) return tokens.some((_, i) => term.phrase.every((p, k) => tokens[i + k] === p));
        return tokens.some((t) => (term.prefix ? t.startsWith(term.token) : t === term.token));
      }),
    );
  return [...docs].filter(([, columns]) => clauses.every((c) => matches(columns, c))).map(([slot]) => slot);
}

const QUERIES: Clause[][] = [
  [[{ token: "red" }]],
  [[{ token: "red" }], [{ token: "dress" }]],
  [[{ token: "sho", prefix: true }]],
  [[{ token: "dre", prefix: true }], [{ token: "blue" }, { token: "denim" }]],
  [[{ token: "tshirt" }, { phrase: ["t", "shirt"] }]],
  [[{ token: "cotton" }], [{ phrase: ["t", "shirt"] }], [{ token: "red" }]],
  [[{ phrase: ["red", "dress", "t"] }]],
  [[{ token: "unknown" }]],
  [[{ token: "jean" }], [{ token: "unknown" }, { token: "denim" }]],
];

test("matches what a plain scan matches through writes, rewrites, deletes and sweeps", () => {
  // Seeded: a failure repeats.
  const rng = seededRandom("text-index");
  const random = () => rng.next();
  // Deleted slots swept after 20 wait, so that sweeps happen between rewrites of waiting slots.
  const index = new TextIndex(20);
  const docs = new Map<number, string[]>();
  let checked = 0;
  for (let step = 0; step < 30_000; step++) {
    const slot = Math.floor(random() * 300);
    if (random() < 0.35) {
      index.delete(slot);
      docs.delete(slot);
    } else {
      const columns = randomColumns(random);
      index.put(
        slot,
        columns.map((c) => (c ? c.split(" ") : [])),
      );
      docs.set(slot, columns);
    }
    if (step % 500 === 0) {
      for (const query of QUERIES) {
        expect(index.match(query).sort((a, b) => a - b)).toEqual(plainMatch(docs, query).sort((a, b) => a - b));
        checked++;
      }
    }
  }
  expect(checked).toBe(60 * QUERIES.length);
});

test("a phrase never spans two fields, and a rewrite drops the old text's tokens", () => {
  const index = new TextIndex();
  index.put(1, [["red", "t"], ["shirt"]]);
  expect(index.match([[{ phrase: ["t", "shirt"] }]])).toEqual([]);
  expect(index.match([[{ token: "t" }], [{ token: "shirt" }]])).toEqual([1]);
  index.put(1, [["blue", "t", "shirt"], []]);
  expect(index.match([[{ token: "red" }]])).toEqual([]);
  expect(index.match([[{ phrase: ["t", "shirt"] }]])).toEqual([1]);
  expect(index.tokensOf(1).sort()).toEqual(["blue", "shirt", "t"]);
  index.delete(1);
  expect(index.match([[{ token: "blue" }]])).toEqual([]);
  expect(index.tokensOf(1)).toEqual([]);
});

test("sequences held in 16 bits widen to 32 once the tokens outnumber them, and match as before", () => {
  const index = new TextIndex(20);
  const word = (n: number) => `w${n}`;
  // 40 tokens a slot, each new, until well past 65,535 tokens; the last field of each repeats the first.
  const slots = 2000;
  for (let slot = 0; slot < slots; slot++) {
    const own = Array.from({ length: 40 }, (_, k) => word(slot * 40 + k));
    index.put(slot, [own.slice(0, 20), own.slice(20), ["shared", own[0]!, own[1]!]]);
  }
  expect(index.size).toBeGreaterThan(65_536);
  for (const slot of [0, 1637, 1638, 1999]) {
    expect(index.match([[{ token: word(slot * 40 + 39) }]])).toEqual([slot]);
    expect(index.match([[{ phrase: ["shared", word(slot * 40), word(slot * 40 + 1)] }]])).toEqual([slot]);
    // Adjacent across a field's end: never a phrase.
    expect(index.match([[{ phrase: [word(slot * 40 + 19), word(slot * 40 + 20)] }]])).toEqual([]);
  }
  expect(index.match([[{ token: "shared" }]]).length).toBe(slots);
  index.put(1999, [["shared"]]);
  index.delete(0);
  expect(index.match([[{ token: word(1999 * 40 + 39) }]])).toEqual([]);
  expect(index.match([[{ token: "shared" }]]).length).toBe(slots - 1);
});

test("words intersect as a plain scan does in a store written in slot order, then rewritten and deleted at random", () => {
  // Written in order, each word's list ascends and later words gallop through it; rewrites and deletes break the
  // order of what is added until a rebuild sorts it again (every 4,096 waiting, or a quarter of the lists).
  const rng = seededRandom("text-index-in-order");
  const random = () => rng.next();
  const index = new TextIndex(50);
  const docs = new Map<number, string[]>();
  const put = (slot: number, columns: string[]) => {
    index.put(
      slot,
      columns.map((c) => (c ? c.split(" ") : [])),
    );
    docs.set(slot, columns);
  };
  // A word on every eighth document: its list is far shorter than the others'.
  const columnsOf = (slot: number) => [...randomColumns(random), slot % 8 === 0 ? "rare red" : ""];
  for (let slot = 0; slot < 6000; slot++) put(slot, columnsOf(slot));
  const queries: Clause[][] = [
    [[{ token: "red" }], [{ token: "dress" }]],
    [[{ token: "rare" }], [{ token: "blue" }], [{ token: "cotton" }]],
    [[{ token: "shirt" }], [{ token: "rare" }], [{ token: "sho", prefix: true }]],
    [[{ token: "red" }], [{ token: "unknown" }]],
  ];
  const sorted = (slots: number[]) => slots.sort((a, b) => a - b);
  let checked = 0;
  for (let step = 0; step < 9000; step++) {
    if (step % 300 === 0)
      for (const query of queries) {
        expect(sorted(index.match(query))).toEqual(sorted(plainMatch(docs, query)));
        checked++;
      }
    const slot = Math.floor(random() * 6500);
    if (random() < 0.3) {
      index.delete(slot);
      docs.delete(slot);
    } else put(slot, columnsOf(slot));
  }
  expect(checked).toBe(30 * queries.length);
});
