/*
 * The API's `facets` parameter: comma-separated key:value pairs ("designer:Levis,price:1000-3000"). A value
 * holding a comma or a backslash escapes it with a backslash ("designer:Marks\, Spencer"). The URL of the results
 * page uses the same syntax, so a shared link is the API request.
 */

export interface FacetSelection {
  key: string;
  value: string;
}

const escapePart = (text: string) => text.replace(/[\\,]/g, (c) => `\\${c}`);

export function formatFacetParam(selections: readonly FacetSelection[]): string {
  return selections.map((s) => `${escapePart(s.key)}:${escapePart(s.value)}`).join(",");
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
  for (const part of splitFacetParam(param)) {
    const colon = part.indexOf(":");
    if (colon <= 0 || colon === part.length - 1) continue; // not key:value: ignored rather than sent to the API
    const selection = { key: part.slice(0, colon).trim(), value: part.slice(colon + 1).trim() };
    if (!selections.some((s) => s.key === selection.key && s.value === selection.value)) selections.push(selection);
  }
  return selections;
}
