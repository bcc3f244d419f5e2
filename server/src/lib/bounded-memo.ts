/**
 * `make` remembered by its argument, for the first `limit` distinct arguments; past them a result is made each
 * time, so a stream of arguments that never repeat (a hostile feed) cannot grow it without bound.
 */
export function boundedMemo<T>(limit: number, make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      if (made.size < limit) made.set(key, value);
    }
    return value;
  };
}
