/*
 * A table described once as data, so each database's migrations can create it whole, create an older shape of it
 * (without the columns a later migration added), or add those columns: the history of a table stays a list of
 * statements while its columns are written in one place. The migrations render the current description, so a new
 * column goes into the description and at the end of both lists as addColumns, and every earlier migration that
 * creates the table takes it out again with withoutColumns; forgetting that fails loudly, as adding a column twice
 * is an error on both databases.
 */
import type { Dialect } from "./dialect.ts";

export interface Table {
  readonly name: string;
  /** One column definition each, `name TYPE constraints`, in the order the table is created with. */
  readonly columns: readonly string[];
  /** The table constraint after the columns (a composite PRIMARY KEY or UNIQUE), when there is one. */
  readonly key?: string;
  /** What follows the closing parenthesis (SQLite's WITHOUT ROWID). */
  readonly options?: string;
}

/** Every table that belongs to a store starts with this column: deleting a store deletes its rows. */
export const STORE_ID = "store_id TEXT NOT NULL REFERENCES stores(id) ON DELETE CASCADE";

const columnName = (column: string): string => column.split(" ", 1)[0]!;

/**
 * Most tables: a store's rows under a key of the store id and the `key` columns, then the `values`. Their rows are
 * small, so SQLite keeps them in key order without a rowid.
 */
export const keyedByStore = (d: Dialect, name: string, columns: { key: readonly string[]; values?: readonly string[] }): Table => ({
  name,
  columns: [STORE_ID, ...columns.key, ...(columns.values ?? [])],
  key: `PRIMARY KEY (store_id, ${columns.key.map(columnName).join(", ")})`,
  options: d.withoutRowid,
});

export function createTable(table: Table): string {
  const lines = table.key ? [...table.columns, table.key] : table.columns;
  return `CREATE TABLE ${table.name} (\n  ${lines.join(",\n  ")}\n)${table.options ?? ""}`;
}

/** The table as it was before a later migration added these columns (see addColumns). */
export function withoutColumns(table: Table, names: readonly string[]): Table {
  return { ...table, columns: table.columns.filter((c) => !names.includes(columnName(c))) };
}

/** ALTER TABLE statements adding these of the table's columns, as described. */
export function addColumns(table: Table, names: readonly string[]): string[] {
  return names.map((name) => {
    const column = table.columns.find((c) => columnName(c) === name);
    if (!column) throw new Error(`${table.name} describes no column ${name}`);
    return `ALTER TABLE ${table.name} ADD COLUMN ${column}`;
  });
}

/** One migration's text from its statements, as each database's runner executes it in one transaction. */
export const migration = (...statements: (string | readonly string[])[]): string => `${statements.flat().join(";\n")};\n`;
