import { expect, test } from "bun:test";
import { TermSignatures } from "../src/modules/similarity/term-signatures.ts";

/*
 * The signature's bound lets similar products pass over a candidate without reading its words, so it must never be
 * below the cosine itself: checked against the cosine of random weighted term sets, many of them sharing terms.
 */

test("a signature's cosine bound is never below the cosine, and is 0 for a product without the source's terms", () => {
  let seed = 11;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const rows = 500;
  const termsPerRow = 16;
  const terms = new Uint32Array(rows * termsPerRow);
  const weights = new Float32Array(rows * termsPerRow);
  const norms = new Float64Array(rows);
  const signatures = new TermSignatures();
  for (let row = 0; row < rows; row++) {
    const ids = new Set<number>();
    while (ids.size < termsPerRow) ids.add(Math.floor(random() * 300));
    let sum = 0;
    [...ids].forEach((id, i) => {
      const w = 1 + random() * 5;
      terms[row * termsPerRow + i] = id;
      weights[row * termsPerRow + i] = w;
      sum += w * w;
    });
    norms[row] = Math.sqrt(sum);
    signatures.write(row, terms, row * termsPerRow, termsPerRow);
  }
  const weightOf = (row: number, term: number) => {
    for (let i = row * termsPerRow; i < (row + 1) * termsPerRow; i++) if (terms[i] === term) return weights[i]!;
    return 0;
  };
  for (let source = 0; source < 20; source++) {
    signatures.source(terms, weights, source * termsPerRow, termsPerRow, norms[source]!);
    for (let row = 0; row < rows; row++) {
      let dot = 0;
      for (let i = row * termsPerRow; i < (row + 1) * termsPerRow; i++) dot += weights[i]! * weightOf(source, terms[i]!);
      expect(signatures.cosineBound(row)).toBeGreaterThanOrEqual(dot / (norms[source]! * norms[row]!));
    }
  }

  const lone = new TermSignatures();
  lone.write(0, Uint32Array.of(1, 2, 3), 0, 3);
  lone.write(1, Uint32Array.of(1, 2, 3), 0, 0);
  lone.source(Uint32Array.of(1, 2, 3), Float32Array.of(1, 1, 1), 0, 3, Math.sqrt(3));
  expect(lone.cosineBound(1)).toBe(0);
  expect(lone.cosineBound(0)).toBeGreaterThanOrEqual(1);
});
