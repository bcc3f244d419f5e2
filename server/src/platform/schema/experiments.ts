import type { Dialect } from "./dialect.ts";
import { keyedByStore, type Table } from "./table.ts";

/* A store's experiments (issue 40): what each tests, as its JSON (modules/experiments/experiment-schema.ts), and where it stands. */

export const experiments = (d: Dialect): Table =>
  keyedByStore(d, "experiments", {
    key: [`id          ${d.sortedText} NOT NULL`],
    values: [
      "body        TEXT NOT NULL",
      "status      TEXT NOT NULL",
      "winner      TEXT",
      `created_at  ${d.bigint} NOT NULL`,
      `updated_at  ${d.bigint} NOT NULL`,
      `started_at  ${d.bigint}`,
      `ended_at    ${d.bigint}`,
    ],
  });
