import { addNumericFilter } from "./filter-lists.ts";
import type { FilterSet } from "./filter-set.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * Algolia's `filters` string in its simple forms: conditions joined by AND, each one `attribute:value`
 * (value bare or quoted), `price >= 10` or `price:10 TO 20`, or a parenthesised OR of values of one attribute,
 * and NOT before a value or such a group (its values excluded):
 * `brand:Nike AND (color:Red OR color:Blue) AND NOT size:XL AND price < 50`. OR across attributes or around AND,
 * and NOT before a comparison, are refused with an error that says so.
 */

type Token = { kind: "open" | "close" | "and" | "or" | "not" } | { kind: "term"; text: string };

/** A condition's text: `attr:value`, `attr:"quoted value"`, `attr >= 10` or `attr:10 TO 20`. */
const TERM =
  /^(?:[^\s()"':<>=!]+\s*(?:>=|<=|!=|>|<|=)\s*-?\d+(?:\.\d+)?|[^\s()"':<>=!]+\s*:\s*-?\d+(?:\.\d+)?\s+TO\s+-?\d+(?:\.\d+)?|[^\s()"':<>=!]+\s*:\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s()]+))/;

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let rest = text.trim();
  while (rest) {
    const word = /^(AND|OR|NOT)(?=[\s(]|$)/.exec(rest);
    if (rest[0] === "(") out.push({ kind: "open" });
    else if (rest[0] === ")") out.push({ kind: "close" });
    else if (word) out.push({ kind: word[1]!.toLowerCase() as "and" | "or" | "not" });
    const consumed = rest[0] === "(" || rest[0] === ")" ? 1 : word ? word[1]!.length : 0;
    if (consumed) {
      rest = rest.slice(consumed).trimStart();
      continue;
    }
    const term = TERM.exec(rest);
    if (!term) throw new UnsupportedSearchError(`filters: cannot read "${rest.slice(0, 40)}"`);
    out.push({ kind: "term", text: term[0] });
    rest = rest.slice(term[0].length).trimStart();
  }
  return out;
}

/** A term that selects a value: its attribute and the value, unquoted. */
function valueTerm(text: string): { attribute: string; value: string } | null {
  const m = /^([^\s:]+)\s*:\s*(.*)$/s.exec(text);
  if (!m || /^-?\d+(?:\.\d+)?\s+TO\s+/.test(m[2]!)) return null;
  const raw = m[2]!;
  const quoted = /^(["'])(.*)\1$/s.exec(raw);
  return { attribute: m[1]!, value: quoted ? quoted[2]!.replace(/\\(.)/g, "$1") : raw };
}

function addTerm(set: FilterSet, text: string): void {
  const selected = valueTerm(text);
  if (selected) set.addValues(selected.attribute, [selected.value]);
  else addNumericFilter(set, text);
}

/** The values of a parenthesised OR, from just after "(" to its ")"; the index after it. */
function orGroup(list: Token[], at: number, refuse: (why: string) => never): { attribute: string; values: string[]; next: number } {
  const values: { attribute: string; value: string }[] = [];
  let i = at;
  for (;;) {
    const inner = list[i++];
    const selected = inner?.kind === "term" ? valueTerm(inner.text) : null;
    if (!selected) return refuse("a parenthesised group must be values of one attribute joined by OR");
    values.push(selected);
    const next = list[i++];
    if (next?.kind === "close") break;
    if (next?.kind !== "or") return refuse("a parenthesised group must be values of one attribute joined by OR");
  }
  const attribute = values[0]!.attribute;
  if (values.some((v) => v.attribute !== attribute)) return refuse("an OR across attributes cannot be searched");
  return { attribute, values: values.map((v) => v.value), next: i };
}

/** After NOT: `attribute:value`, or a parenthesised OR of values of one attribute, each value excluded; the index after it. */
function addNegation(set: FilterSet, list: Token[], at: number, refuse: (why: string) => never): number {
  const next = list[at];
  if (next?.kind === "open") {
    const group = orGroup(list, at + 1, refuse);
    for (const value of group.values) set.addExclusion(group.attribute, value);
    return group.next;
  }
  const selected = next?.kind === "term" ? valueTerm(next.text) : null;
  if (!selected) return refuse("NOT works on attribute:value or a parenthesised OR of values of one attribute");
  set.addExclusion(selected.attribute, selected.value);
  return at + 1;
}

export function addFiltersExpression(set: FilterSet, filters: string | undefined): void {
  if (!filters?.trim()) return;
  const refuse = (why: string): never => {
    throw new UnsupportedSearchError(`filters: ${why} ("${filters}")`);
  };
  const list = tokens(filters);
  let i = 0;
  for (;;) {
    const token = list[i++];
    if (token?.kind === "term") addTerm(set, token.text);
    else if (token?.kind === "open") {
      const group = orGroup(list, i, refuse);
      set.addValues(group.attribute, group.values);
      i = group.next;
    } else if (token?.kind === "not") i = addNegation(set, list, i, refuse);
    else return refuse("a condition is missing");
    const joiner = list[i++];
    if (!joiner) return;
    if (joiner.kind !== "and") {
      return refuse(
        joiner.kind === "or"
          ? "OR is supported inside parentheses only, between values of one attribute"
          : "conditions must be joined by AND",
      );
    }
  }
}
