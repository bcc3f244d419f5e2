/*
 * Variable-length data per row (a product's term ids, its colours) kept in a few store-wide typed arrays instead of
 * a small typed array per row: at tens of thousands of rows the per-array headers cost more than the numbers. Each
 * row owns one slice [start, start + length) of every column; a row written again gets a new slice at the end, and
 * the abandoned ones are squeezed out once they outweigh the live ones, so a catalog that keeps changing stays
 * about the size of its live rows.
 */

type Column = Float32Array | Uint32Array | Int32Array;

export class RowSlices<C extends Column[]> {
  private starts = new Uint32Array(0);
  private lengths = new Uint32Array(0);
  /** Where the next slice starts, and how many places before it belong to no row. */
  private end = 0;
  private abandoned = 0;

  /** Read them afresh after each `write`: a column is replaced when it grows. */
  constructor(public columns: C) {}

  start(row: number): number {
    return this.starts[row]!;
  }

  length(row: number): number {
    return this.lengths[row]!;
  }

  /** Gives `row` a slice of `length` places in every column (its earlier one is abandoned); answers its start. */
  write(row: number, length: number): number {
    this.release(row);
    if (this.abandoned > this.end - this.abandoned) this.compact();
    if (row >= this.starts.length) {
      this.starts = grown(this.starts, row + 1);
      this.lengths = grown(this.lengths, row + 1);
    }
    if (this.end + length > this.columns[0]!.length) this.columns = this.columns.map((c) => grown(c, this.end + length)) as C;
    this.starts[row] = this.end;
    this.lengths[row] = length;
    this.end += length;
    return this.starts[row]!;
  }

  release(row: number): void {
    if (row >= this.lengths.length) return;
    this.abandoned += this.lengths[row]!;
    this.lengths[row] = 0;
  }

  /** Moves the live slices down over the abandoned places, in the order they lie. */
  private compact(): void {
    const rows = [...this.lengths.keys()].filter((row) => this.lengths[row]! > 0).sort((a, b) => this.starts[a]! - this.starts[b]!);
    let to = 0;
    for (const row of rows) {
      const from = this.starts[row]!;
      const length = this.lengths[row]!;
      for (const column of this.columns) column.copyWithin(to, from, from + length);
      this.starts[row] = to;
      to += length;
    }
    this.end = to;
    this.abandoned = 0;
  }
}

/** A copy with room for at least `needed` places, grown by half again so that appending stays cheap. */
function grown<T extends Column>(column: T, needed: number): T {
  const bigger = new (column.constructor as new (length: number) => T)(Math.max(needed, Math.ceil(column.length * 1.5), 64));
  bigger.set(column);
  return bigger;
}
