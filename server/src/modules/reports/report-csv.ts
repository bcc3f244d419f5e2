/*
 * A report's table as CSV (RFC 4180). Queries and ids are shopper input: a cell a spreadsheet would read as a
 * formula (=, +, -, @, tab, CR) is prefixed with an apostrophe, and every cell is quoted, because a spreadsheet
 * that reads `;` as the separator would otherwise split `x;=1+1;` into a live `=1+1` cell.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "number" ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

/** Columns are every key of any row, in first-seen order (revenue currencies differ per row). */
export function toCsv(rows: readonly Record<string, string | number | null>[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const lines = [columns.map(cell).join(",")];
  for (const row of rows) lines.push(columns.map((c) => cell(row[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}
