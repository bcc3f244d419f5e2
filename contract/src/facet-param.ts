/*
 * The API's `facets` parameter: comma-separated key:value pairs ("designer:Levis,price:1000-3000"). A value
 * holding a comma or a backslash escapes it with a backslash ("designer:Marks\, Spencer"). A `!` before the key
 * excludes the value ("!designer:Levis"): it marks the pair, not the value, so a value may begin with any
 * character. The URL of the results page uses the same syntax, so a shared link is the API request.
 */

export interface FacetSelection {
  key: string;
  value: string;
  /** `!key:value`: products with this value are left out (products without the key stay). */
  exclude?: boolean;
}

/** What marks an excluded pair: the first character of the pair, before the key. */
export const EXCLUDE_MARK = "!";

/** A pair as written, without its exclusion mark, and whether it had one. */
export function exclusionOf(part: string): { exclude: boolean; pair: string } {
  const trimmed = part.trimStart();
  return trimmed.startsWith(EXCLUDE_MARK) ? { exclude: true, pair: trimmed.slice(1) } : { exclude: false, pair: part };
}

const escapePart = (text: string) => text.replace(/[\\,]/g, (c) => `\\${c}`);

export function formatFacetParam(selections: readonly FacetSelection[]): string {
  return selections.map((s) => `${s.exclude ? EXCLUDE_MARK : ""}${escapePart(s.key)}:${escapePart(s.value)}`).join(",");
}

/** The parameter's pairs, unescaped, split on the commas that are not escaped. The server parses with this too. */
export function splitFacetParam(param: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < param.length; i++) {
    const c = param[i]!;
    if (c === "\\" && i + 1 < param.length) current += param[++i];
    else if (c === ",") {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

export function parseFacetParam(param: string | null | undefined): FacetSelection[] {
  if (!param) return [];
  const selections: FacetSelection[] = [];
  for (const written of splitFacetParam(param)) {
    const { exclude, pair: part } = exclusionOf(written);
    const colon = part.indexOf(":");
    if (colon <= 0 || colon === part.length - 1) continue; // not key:value: ignored rather than sent to the API
    const selection: FacetSelection = {
      key: part.slice(0, colon).trim(),
      value: part.slice(colon + 1).trim(),
      ...(exclude ? { exclude } : {}),
    };
    if (!selections.some((s) => s.key === selection.key && s.value === selection.value && !s.exclude === !selection.exclude)) {
      selections.push(selection);
    }
  }
  return selections;
}
