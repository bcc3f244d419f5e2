/*
 * Checkpoints the service database's write-ahead log when an indexing batch was committed
 * (wal-checkpoints.ts), off the main thread. PASSIVE: it never waits for, nor holds up, readers and writers.
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

let db: Database | null = null;

self.onmessage = (event: MessageEvent<string>) => {
  db ??= new Database(event.data);
  db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
};
