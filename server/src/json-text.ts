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
    throw new InvalidJsonError(`The body is not valid JSON${positionOf(error as Error, text)}`, [{ path: "body", problem: (error as Error).message }]);
  }
}
