/*
 * A report's table as CSV (RFC 4180). Queries and ids are shopper input: a cell a spreadsheet would read as a
 * formula (=, +, -, @, tab, CR) is prefixed with an apostrophe, so opening an export never runs one.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Columns are every key of any row, in first-seen order (revenue currencies differ per row). */
export function toCsv(rows: readonly Record<string, string | number | null>[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const lines = [columns.map(cell).join(",")];
  for (const row of rows) lines.push(columns.map((c) => cell(row[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}
