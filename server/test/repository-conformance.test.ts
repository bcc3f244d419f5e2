import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openServiceDatabase } from "../src/db/connection.ts";
import { migratePostgres, openPostgres, type Sql } from "../src/db/postgres/connection.ts";
import { POSTGRES_MIGRATIONS } from "../src/db/postgres/schema.ts";
import { PostgresStoresRepo } from "../src/db/postgres/stores-repo.ts";
import { SqliteStoresRepo } from "../src/db/stores-repo.ts";
import type { StoresRepository } from "../src/db/stores-repository.ts";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres-cluster.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * The repository conformance suite: every durable store of the service's state (SQLite, the embedded default;
 * PostgreSQL, DATABASE_URL) passes the same tests, so the service behaves the same on either. PostgreSQL runs as
 * a throwaway cluster in a temp directory (support/postgres-cluster.ts).
 */

interface Backend {
  stores: StoresRepository;
  close(): Promise<void>;
}

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);
afterAll(async () => {
  await cluster.stop();
});

const BACKENDS: { name: string; open(): Promise<Backend> }[] = [
  {
    name: "SQLite",
    async open() {
      const dir = tempDir("sfs-conformance-");
      const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
      return {
        stores: new SqliteStoresRepo(db),
        async close() {
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "PostgreSQL",
    async open() {
      const sql = openPostgres(await cluster.createDatabase());
      await migratePostgres(sql);
      return { stores: new PostgresStoresRepo(sql), close: () => sql.end() };
    },
  },
];

const hash = (n: number) => new Uint8Array(32).fill(n);

for (const backend of BACKENDS) {
  describe(`${backend.name}: stores and keys`, () => {
    let b: Backend;
    beforeEach(async () => {
      b = await backend.open();
    });
    afterEach(async () => {
      await b.close();
    });

    test("a store is created once, read back, listed by id and deleted", async () => {
      expect(await b.stores.create("shop-b", 2000)).toBe(true);
      expect(await b.stores.create("shop-a", 1000)).toBe(true);
      expect(await b.stores.create("shop-a", 3000)).toBe(false);
      expect(await b.stores.get("shop-a")).toEqual({ id: "shop-a", createdAt: 1000, settings: {} });
      expect(await b.stores.createdAt("shop-b")).toBe(2000);
      expect((await b.stores.list()).map((s) => s.id)).toEqual(["shop-a", "shop-b"]);
      expect(await b.stores.delete("shop-a")).toBe(true);
      expect(await b.stores.delete("shop-a")).toBe(false);
      expect(await b.stores.get("shop-a")).toBeNull();
      expect(await b.stores.createdAt("shop-a")).toBeNull();
    });

    test("settings are stored as given, nested values and unicode included", async () => {
      await b.stores.create("s", 1);
      const settings = { locale: "de", facets: [{ key: "designer", names: { de: "Marke" } }], note: "Größe ✓", ratingPrior: { mean: 0.7, weight: 10 } };
      await b.stores.updateSettings("s", settings);
      expect((await b.stores.get("s"))!.settings).toEqual(settings);
    });

    test("a key is found by its hash while valid; replacing it expires the old one at the given time", async () => {
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "search", hash(1), 10, 10);
      expect(await b.stores.keyByHash(hash(1), 11)).toEqual({ storeId: "s", kind: "search", keyHash: hash(1) });
      // Rotation with a grace period: both work until it ends, then only the new one.
      await b.stores.replaceKey("s", "search", hash(2), 20, 100);
      expect((await b.stores.keyByHash(hash(1), 99))?.storeId).toBe("s");
      expect(await b.stores.keyByHash(hash(1), 100)).toBeNull();
      expect((await b.stores.keyByHash(hash(2), 100))?.kind).toBe("search");
      expect((await b.stores.activeKeys("s", 50)).map((k) => k.keyHash[0]).sort()).toEqual([1, 2]);
      expect((await b.stores.activeKeys("s", 150)).map((k) => k.keyHash[0])).toEqual([2]);
      // Issued hashes include retired ones: a stale setting can never bring a key back.
      expect((await b.stores.issuedKeyHashes("s", "search")).map((h) => h[0]).sort()).toEqual([1, 2]);
      expect(await b.stores.issuedKeyHashes("s", "admin")).toEqual([]);
    });

    test("replacing at once (no grace) retires the old key of that kind only", async () => {
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "admin", hash(3), 10, 10);
      await b.stores.replaceKey("s", "analytics", hash(4), 10, 10);
      await b.stores.replaceKey("s", "admin", hash(5), 20, 20);
      expect(await b.stores.keyByHash(hash(3), 21)).toBeNull();
      expect((await b.stores.keyByHash(hash(4), 21))?.kind).toBe("analytics");
      expect((await b.stores.keyByHash(hash(5), 21))?.kind).toBe("admin");
    });

    test("deleting a store deletes its keys: a store created again with the same id has none", async () => {
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "admin", hash(6), 10, 10);
      await b.stores.delete("s");
      await b.stores.create("s", 50);
      expect(await b.stores.keyByHash(hash(6), 60)).toBeNull();
      expect(await b.stores.issuedKeyHashes("s", "admin")).toEqual([]);
    });

    test("a key hash that is not stored, or of another length, finds nothing", async () => {
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "admin", hash(7), 10, 10);
      expect(await b.stores.keyByHash(hash(8), 11)).toBeNull();
      expect(await b.stores.keyByHash(new Uint8Array(0), 11)).toBeNull();
    });
  });
}

describe("PostgreSQL migrations", () => {
  let sqls: Sql[] = [];
  afterEach(async () => {
    await Promise.all(sqls.map((s) => s.end()));
    sqls = [];
  });

  test("replicas starting together migrate once: one applies the schema, the others find it done", async () => {
    const url = await cluster.createDatabase();
    sqls = Array.from({ length: 4 }, () => openPostgres(url, { max: 1 }));
    const applied = await Promise.all(sqls.map((sql) => migratePostgres(sql)));
    expect(applied.sort()).toEqual([0, 0, 0, POSTGRES_MIGRATIONS.length]);
    const versions = await sqls[0]!<{ version: number }[]>`SELECT version FROM schema_migrations ORDER BY version`;
    expect(versions.map((v) => v.version)).toEqual(POSTGRES_MIGRATIONS.map((_, i) => i + 1));
    expect(await migratePostgres(sqls[0]!)).toBe(0);
  });

  test("a later migration is applied on the next start, the earlier ones are not run again", async () => {
    const sql = openPostgres(await cluster.createDatabase(), { max: 1 });
    sqls = [sql];
    expect(await migratePostgres(sql)).toBe(POSTGRES_MIGRATIONS.length);
    const next = [...POSTGRES_MIGRATIONS, "CREATE TABLE later_table (id INTEGER PRIMARY KEY)"];
    expect(await migratePostgres(sql, next)).toBe(1);
    expect((await sql`SELECT count(*)::int AS n FROM later_table`)[0]!.n).toBe(0);
  });

  test("a failing migration leaves nothing half-applied", async () => {
    const sql = openPostgres(await cluster.createDatabase(), { max: 1 });
    sqls = [sql];
    await expect(migratePostgres(sql, [...POSTGRES_MIGRATIONS, "CREATE TABLE t1 (id INTEGER); SELECT no_such_function()"])).rejects.toThrow(/no_such_function/);
    expect((await sql`SELECT to_regclass('t1') AS t`)[0]!.t).toBeNull();
    expect((await sql`SELECT to_regclass('stores') AS t`)[0]!.t).toBeNull();
  });
});
