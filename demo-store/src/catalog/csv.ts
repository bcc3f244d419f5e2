/*
 * A small RFC 4180 CSV reader. The data sets carry quoted fields with embedded newlines,
 * doubled quotes and (sometimes) CRLF line ends, and no CSV library is installed.
 *
 * Deliberate leniencies, because real exports are not always strict:
 * - a bare CR, LF or CRLF all end a record;
 * - a quote inside an unquoted field is kept as a literal character;
 * - characters between a closing quote and the next delimiter are kept (`"ab"c` -> `abc`);
 * - a leading UTF-8 byte-order mark is dropped.
 * An unterminated quoted field is an error: silently swallowing the rest of the file would hide corruption.
 */

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`${message} (line ${line})`);
    this.name = "CsvError";
  }
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Parses CSV text into records of raw string fields. Blank lines are skipped. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let record: string[] = [];
  let field = "";

  const endRecord = () => {
    record.push(field);
    field = "";
    // A line with nothing on it is not a record with one empty field.
    if (!(record.length === 1 && record[0] === "")) records.push(record);
    record = [];
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE && field === "") {
      // Quoted section: copy runs up to the next quote in one slice (descriptions are long).
      const startLine = line;
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new CsvError("unterminated quoted field", startLine);
        const chunk = text.slice(i, q);
        field += chunk;
        line += countNewlines(chunk);
        if (text.charCodeAt(q + 1) === QUOTE) {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      continue;
    }
    if (c === COMMA) {
      record.push(field);
      field = "";
      i++;
    } else if (c === LF || c === CR) {
      endRecord();
      i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
    } else {
      // Plain run up to the next special character, in one slice.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === COMMA || d === LF || d === CR) break;
        j++;
      }
      field += text.slice(i, j);
      i = j;
    }
  }
  if (field !== "" || record.length > 0) endRecord();
  return records;
}

function countNewlines(s: string): number {
  let count = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === LF) count++;
    else if (c === CR && s.charCodeAt(k + 1) !== LF) count++;
  }
  return count;
}

export interface CsvTable {
  header: string[];
  /** One object per data record, keyed by header name; missing trailing fields read as "". */
  rows: Array<Record<string, string>>;
  /** Data records whose field count differs from the header's (kept, padded or truncated). */
  raggedRows: number;
}

/** Parses CSV with a header record into keyed rows. Header names are trimmed. */
export function parseCsvTable(text: string): CsvTable {
  const records = parseCsv(text);
  const header = (records[0] ?? []).map((h) => h.trim());
  const rows: Array<Record<string, string>> = [];
  let raggedRows = 0;
  for (let r = 1; r < records.length; r++) {
    const rec = records[r]!;
    if (rec.length !== header.length) raggedRows++;
    const row: Record<string, string> = {};
    for (let k = 0; k < header.length; k++) row[header[k]!] = rec[k] ?? "";
    rows.push(row);
  }
  return { header, rows, raggedRows };
}
