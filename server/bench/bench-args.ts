/* Command-line flags of the benches: `--name value`, or the fallback when the flag (or its value) is missing. */

export function stringArg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

export const numberArg = (name: string, fallback: number): number => Number(stringArg(name, String(fallback)));
