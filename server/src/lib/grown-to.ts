type Growable = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

/** A copy of a typed array with room for at least `atLeast` items (at least `factor` times as long). */
export function grownTo<T extends Growable>(array: T, atLeast: number, factor = 2): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(atLeast, Math.ceil(array.length * factor)));
  next.set(array);
  return next;
}
