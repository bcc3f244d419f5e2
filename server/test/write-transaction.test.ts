import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase, writeTransaction } from "../src/platform/sqlite/connection.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * Two connections write the service's file (the serving thread and the events thread). A write transaction that read
 * before another connection committed would fail at once with SQLITE_BUSY, without waiting out its busy time-out;
 * writeTransaction takes the lock before it reads, so it waits and then reads what the other committed.
 */

const dir = tempDir("sfs-write-tx-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a read-then-write transaction waits for another connection's commit and reads what it committed", async () => {
  const file = join(dir, "two.db");
  const db = openDatabase(file, { synchronous: "NORMAL", busyTimeoutMs: 10_000 });
  db.exec("CREATE TABLE counts (n INTEGER NOT NULL)");
  db.exec("INSERT INTO counts VALUES (0)");
  // The other writer: holds the write lock, adds one, and commits a moment later.
  const other = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const { Database } = require("bun:sqlite");
       const db = new Database(${JSON.stringify(file)});
       db.exec("BEGIN IMMEDIATE");
       db.exec("UPDATE counts SET n = n + 1");
       console.log("locked");
       await Bun.sleep(300);
       db.exec("COMMIT");`,
    ],
    { stdout: "pipe" },
  );
  const reader = other.stdout.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain("locked");
  // Read, then write: counts on what the other connection committed, or the two increments would be one.
  writeTransaction(db, () => {
    const { n } = db.query("SELECT n FROM counts").get() as { n: number };
    db.query("UPDATE counts SET n = ?").run(n + 1);
  })();
  expect(await other.exited).toBe(0);
  expect((db.query("SELECT n FROM counts").get() as { n: number }).n).toBe(2);
  db.close();
}, 60_000);
