import { InvalidJsonError } from "./errors.ts";

function positionOf(error: Error, text: string): string {
  const at = /position (\d+)/.exec(error.message)?.[1];
  if (at === undefined) return "";
  const offset = Number(at);
  const line = text.slice(0, offset).split("\n").length;
  return ` at line ${line}, character ${offset - text.lastIndexOf("\n", offset - 1)}`;
}

/** A request body's JSON text parsed; an empty or broken one is an InvalidJsonError that says where it breaks. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === "") throw new InvalidJsonError("The body is empty; send a JSON object or array");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidJsonError(`The body is not valid JSON${positionOf(error as Error, text)}`, [
      { path: "body", problem: (error as Error).message },
    ]);
  }
}

/**
 * How many items a JSON text's top-level array holds, counting no further than `stopAfter`: a body that holds too
 * many is refused after scanning its first items instead of after parsing all of it (a 14 MiB array of 250,000
 * objects took 230-390 ms to parse, holding every request up). Null when the text is not an array. The text is
 * not validated here: a broken one is refused by the parse that follows.
 */
export function countTopLevelItems(text: string, stopAfter: number): number | null {
  let i = 0;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== "[") return null;
  let depth = 0;
  let count = 0;
  let inString = false;
  let empty = true;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      if (--depth === 0) break;
    } else if (c === 44 && depth === 1) {
      if (++count >= stopAfter) return count;
    }
    if (depth >= 1 && empty && c !== 91 && c > 32) empty = false;
  }
  return empty ? 0 : count + 1;
}
