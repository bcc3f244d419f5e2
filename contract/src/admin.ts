/* What the admin areas (rules, synonyms, webhooks, …) answer alike. */

/** DELETE of a rule or a synonym set. */
export interface Deleted {
  id: string;
  deleted: true;
}

/** An item of an import that was not imported: where the export holds it, its id when it has one, and why. */
export interface ImportProblem {
  index: number;
  id?: string;
  message: string;
}

/** POST /rules/import and POST /synonyms/import: how many items were saved, and the others with their reason. */
export interface ImportReport {
  imported: number;
  errors: ImportProblem[];
}

/** A page of a list the admin key reads by offset (GET /rules, GET /synonyms): the page's items under `K`. */
export type Page<K extends string, T> = { [key in K]: T[] } & { total: number };
