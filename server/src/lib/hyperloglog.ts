/*
 * HyperLogLog (Flajolet et al. 2007) with 2^14 registers: distinct users and sessions over any date range from
 * one small sketch per day, merged at read time, instead of a distinct count over every visitor of the range (at
 * a million events that scan took 250-570 ms). Standard error 1.04 / sqrt(2^14) = 0.8%; small counts use linear
 * counting and are exact in practice (5 visitors read as 5). Sketches hold no ids: erasing a user leaves them as
 * they are. Stored deflated: most days' sketches are mostly empty registers.
 */

const P = 14;
export const REGISTERS = 1 << P;
const ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);
const INDEX_MASK = BigInt(REGISTERS - 1);
const RANK_BITS = 64 - P;

export const emptySketch = () => new Uint8Array(REGISTERS);

export function addToSketch(sketch: Uint8Array, id: string): void {
  const h = Bun.hash.wyhash(id, 0n);
  const index = Number(h & INDEX_MASK);
  const rest = h >> BigInt(P);
  // Position of the first 1 bit among the remaining RANK_BITS bits, from the top (1-based).
  const rank = rest === 0n ? RANK_BITS + 1 : RANK_BITS - rest.toString(2).length + 1;
  if (rank > sketch[index]!) sketch[index] = rank;
}

export function mergeInto(target: Uint8Array, other: Uint8Array): void {
  for (let i = 0; i < REGISTERS; i++) if (other[i]! > target[i]!) target[i] = other[i]!;
}

export function estimate(sketch: Uint8Array): number {
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < REGISTERS; i++) {
    sum += 2 ** -sketch[i]!;
    if (sketch[i] === 0) zeros++;
  }
  const raw = (ALPHA * REGISTERS * REGISTERS) / sum;
  return Math.round(raw <= 2.5 * REGISTERS && zeros > 0 ? REGISTERS * Math.log(REGISTERS / zeros) : raw);
}

export const packSketch = (sketch: Uint8Array): Uint8Array => Bun.deflateSync(sketch as Uint8Array<ArrayBuffer>);
export const unpackSketch = (packed: Uint8Array): Uint8Array => Bun.inflateSync(packed as Uint8Array<ArrayBuffer>);
