import { closeSync, fsyncSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { join } from "node:path";
import { StorageUnavailableError } from "../errors.ts";

/*
 * Whether the service's storage can take writes. Two things make it unwritable: a disk that is (nearly) full,
 * checked every few seconds with statfs so that writes are refused before SQLite itself fails halfway, and a write
 * that failed (SQLITE_FULL, an I/O error, a read-only file). While unwritable, /health answers 503 with the reason
 * and requests that write answer 503: nothing new is acknowledged that could not be kept, and what was acknowledged
 * before stays committed. A probe write (a small file in the data directory, synced and removed) decides when the
 * storage is writable again.
 */

/** SQLite result codes for a database that another connection holds (a CLI command, a backup): retry shortly. */
const BUSY = /^SQLITE_(BUSY|LOCKED)/;
/** Result codes for storage that cannot take writes until an operator acts (disk full, I/O error, read-only). */
const BROKEN = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB)/;

/** An error thrown by bun:sqlite carries the extended result code, e.g. SQLITE_IOERR_WRITE. */
function sqliteCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return (error as Error | null)?.name === "SQLiteError" && typeof code === "string" ? code : null;
}

/**
 * PostgreSQL (DATABASE_URL) out of reach or refusing work for a while: the connection failed or was cut
 * (postgres.js's connection codes, SQLSTATE class 08), the server is shutting down or starting (57P0x), short of
 * resources (class 53, a full disk included), or a transaction lost a conflict (40001, 40P01). What it says, for the
 * 503; null for any other error (a bug, which stays a 500).
 */
function postgresTrouble(error: unknown): "unreachable" | "busy" | "short of resources" | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  if (
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|CONNECT_TIMEOUT|CONNECTION_(CLOSED|ENDED|DESTROYED))$|^08|^57P0/.test(code)
  )
    return "unreachable";
  if ((error as Error).name !== "PostgresError") return null;
  if (/^53/.test(code)) return "short of resources";
  if (code === "40001" || code === "40P01") return "busy";
  return null;
}

export interface StorageHealthOptions {
  dataDir: string;
  /** Writes are refused when the data directory's file system has less free space than this. */
  minFreeBytes: number;
  /** How often the free space is checked (and, while unwritable, the probe write tried). */
  checkEveryMs?: number;
  log: { warn(msg: string, fields?: Record<string, unknown>): void; info(msg: string, fields?: Record<string, unknown>): void };
  /** A database elsewhere (PostgreSQL): asked at every check whether it answers; /health says when it does not. */
  ping?: () => Promise<void>;
}

/** How long the database has to answer a health check's ping. */
const PING_TIMEOUT_MS = 2_000;

export class StorageHealth {
  private problem: string | null = null;
  /** Why the database elsewhere did not answer the last ping; null when it did. */
  private unreachable: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly o: StorageHealthOptions) {}

  /** Checks now and then every `checkEveryMs`; the timer does not keep the process alive. */
  start(): void {
    this.check();
    this.timer = setInterval(() => this.check(), this.o.checkEveryMs ?? 5_000);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Null when writable, else why not (for /health). */
  get reason(): string | null {
    return this.problem ?? this.unreachable;
  }

  /** Throws the 503 a write gets while the storage cannot take it. */
  assertWritable(): void {
    if (this.problem) throw new StorageUnavailableError(`Storage cannot take writes: ${this.problem}`, 5);
  }

  /**
   * The error a failed database call becomes for the client, or null when it is not a storage failure. A lasting
   * failure also marks the storage unwritable until a probe write succeeds.
   */
  classify(error: unknown): StorageUnavailableError | null {
    const pg = postgresTrouble(error);
    if (pg) return new StorageUnavailableError(`The database is ${pg}; retry shortly`, pg === "busy" ? 1 : 5);
    const code = sqliteCode(error);
    if (!code) return null;
    if (BUSY.test(code)) return new StorageUnavailableError("The database is busy (held by another process); retry shortly", 1);
    if (!BROKEN.test(code)) return null;
    this.markBroken(`a database write failed (${code}: ${(error as Error).message})`);
    return new StorageUnavailableError(`Storage cannot take writes: ${this.problem}`, 5);
  }

  private markBroken(problem: string): void {
    if (!this.problem) this.o.log.warn("storage unwritable", { reason: problem });
    this.problem = problem;
  }

  check(): void {
    if (this.o.ping) void this.pingDatabase(this.o.ping);
    const free = this.freeBytes();
    if (free !== null && free < this.o.minFreeBytes) {
      this.markBroken(
        `the disk holding the data directory has ${Math.floor(free / 1048576)} MiB free, under the minimum of ${Math.floor(this.o.minFreeBytes / 1048576)} MiB (MIN_FREE_DISK_MB)`,
      );
      return;
    }
    if (this.problem && this.probeWrite()) {
      this.o.log.info("storage writable again", { previously: this.problem });
      this.problem = null;
    }
  }

  private async pingDatabase(ping: () => Promise<void>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        ping(),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS))),
      ]);
      if (this.unreachable) this.o.log.info("database reachable again", { previously: this.unreachable });
      this.unreachable = null;
    } catch (error) {
      if (!this.unreachable) this.o.log.warn("database unreachable", { error: (error as Error).message });
      this.unreachable = `the database cannot be reached (${(error as Error).message})`;
    } finally {
      clearTimeout(timer);
    }
  }

  private freeBytes(): number | null {
    try {
      const s = statfsSync(this.o.dataDir);
      return s.bavail * s.bsize;
    } catch {
      return null;
    }
  }

  /** Writes, syncs and removes 64 KiB beside the database: the cheapest real evidence that writes work again. */
  private probeWrite(): boolean {
    const file = join(this.o.dataDir, ".write-probe");
    try {
      const fd = openSync(file, "w");
      try {
        writeSync(fd, Buffer.alloc(65536));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch {
      return false;
    } finally {
      rmSync(file, { force: true });
    }
  }
}
