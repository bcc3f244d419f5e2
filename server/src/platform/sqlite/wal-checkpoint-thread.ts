/*
 * Checkpoints write-ahead logs when a batch was committed to their database (wal-checkpoints.ts), off the main
 * thread. PASSIVE: it never waits for, nor holds up, readers and writers. One thread serves every file it is
 * sent, each through a connection of its own kept open until the file is forgotten.
 */
import { Database } from "bun:sqlite";
import type { CheckpointReply, CheckpointRequest } from "./wal-checkpoints.ts";

declare const self: Worker;

const open = new Map<string, Database>();

self.onmessage = (event: MessageEvent<CheckpointRequest>) => {
  const request = event.data;
  if (request.type === "forget") {
    open.get(request.file)?.close();
    open.delete(request.file);
    self.postMessage({ forgotten: request.file } satisfies CheckpointReply);
    return;
  }
  let db = open.get(request.file);
  if (!db) open.set(request.file, (db = new Database(request.file)));
  db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
};
