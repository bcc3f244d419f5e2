/*
 * An upper bound of the words' cosine between a source and a candidate, read from 8 bytes per candidate instead
 * of its terms: each row keeps a signature of 64 bits in which every term it has sets one bit. A source term
 * whose bit the candidate lacks is surely not the candidate's; by Cauchy-Schwarz the cosine is at most the length
 * of the source's unit vector over the terms that may be shared. In one category most candidates share only its
 * common words, whose weights are low, so the bound rules most of them out of a ranking's best before their
 * terms are read.
 */

const WORDS = 2;
const BITS = WORDS * 32;
/** Weights are held as 32-bit floats and norms from the exact ones: a computed cosine may pass its bound by rounding, by far less than this. */
const ROUNDING = 1 + 1e-6;

/** A term's bit (of BITS = 2^6): its id spread by a multiplicative hash (ids of one category's words come in runs). */
const bitOf = (term: number) => Math.imul(term, 0x9e3779b1) >>> 26;

export class TermSignatures {
  private bits = new Uint32Array(0);
  /** The source's signature, and per bit the share of its squared norm that its terms at that bit hold. */
  private readonly sourceBits = new Uint32Array(WORDS);
  private readonly sourceShare = new Float64Array(BITS);

  /** Sets `row`'s signature from its term ids, the slice [at, at + length) of `terms`. */
  write(row: number, terms: Uint32Array, at: number, length: number): void {
    if ((row + 1) * WORDS > this.bits.length) {
      const bigger = new Uint32Array(Math.max((row + 1) * WORDS, Math.ceil(this.bits.length * 1.5), 64 * WORDS));
      bigger.set(this.bits);
      this.bits = bigger;
    }
    this.bits.fill(0, row * WORDS, (row + 1) * WORDS);
    for (let i = at; i < at + length; i++) {
      const bit = bitOf(terms[i]!);
      this.bits[row * WORDS + (bit >>> 5)]! |= 1 << (bit & 31);
    }
  }

  /** The source of the bounds that follow: its term ids and weights, the slices [at, at + length), and its norm. */
  source(terms: Uint32Array, weights: Float32Array, at: number, length: number, norm: number): void {
    this.sourceBits.fill(0);
    this.sourceShare.fill(0);
    if (!norm) return;
    for (let i = at; i < at + length; i++) {
      const bit = bitOf(terms[i]!);
      this.sourceBits[bit >>> 5]! |= 1 << (bit & 31);
      this.sourceShare[bit]! += (weights[i]! / norm) ** 2;
    }
  }

  /** At least the cosine of the source's and `row`'s weights as computed (similarity-index.ts). */
  cosineBound(row: number): number {
    let shared = 0;
    for (let word = 0; word < WORDS; word++) {
      let common = this.bits[row * WORDS + word]! & this.sourceBits[word]!;
      while (common) {
        const low = common & -common;
        shared += this.sourceShare[word * 32 + 31 - Math.clz32(low)]!;
        common ^= low;
      }
    }
    return Math.min(1, Math.sqrt(shared)) * ROUNDING;
  }
}
