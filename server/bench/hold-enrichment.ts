import { Database } from "bun:sqlite";

/**
 * Postpones the enrichment jobs due before `until` (the server's own database, written beside it in WAL mode, in
 * small transactions so that the server's writes never wait long); returns how many.
 */
export function holdEnrichment(serviceDb: string, until: number): number {
  const db = new Database(serviceDb);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const hold = db.query(
      "UPDATE enrichment_jobs SET next_run_at = ?1 WHERE (store_id, product_id) IN (SELECT store_id, product_id FROM enrichment_jobs WHERE next_run_at < ?1 LIMIT 500)",
    );
    let held = 0;
    for (let changed = -1; changed !== 0; held += changed) changed = hold.run(until).changes;
    return held;
  } finally {
    db.close();
  }
}
