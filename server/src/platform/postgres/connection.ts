import postgres from "postgres";
import { POSTGRES_MIGRATIONS } from "./schema.ts";

export type Sql = postgres.Sql;

/**
 * A pool of connections to DATABASE_URL. BIGINT columns hold millisecond times and counts, all far below 2^53,
 * so they come back as numbers (postgres.js would give strings).
 */
export function openPostgres(url: string, opts: { max?: number } = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    // Seconds before the next attempt after a failed connection: postgres.js waits up to 20 s, and every query
    // waits with it, so a request to a replica whose database is away would take that long to get its 503.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
  });
}

/** Any fixed number: the advisory lock replicas take to migrate one at a time. */
const MIGRATION_LOCK = 7_314_226_001;

/**
 * Applies the migrations not applied yet, each once, under a transaction-scoped advisory lock: replicas that
 * start together queue on the lock, and the later ones find the work done. Returns how many it applied.
 */
export async function migratePostgres(sql: Sql, migrations: readonly string[] = POSTGRES_MIGRATIONS): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`;
    const [row] = await tx<{ version: number }[]>`SELECT COALESCE(MAX(version), 0)::int AS version FROM schema_migrations`;
    const current = row?.version ?? 0;
    for (let i = current; i < migrations.length; i++) {
      await tx.unsafe(migrations[i]!);
      await tx`INSERT INTO schema_migrations (version, applied_at) VALUES (${i + 1}, ${Date.now()})`;
    }
    return Math.max(0, migrations.length - current);
  });
}
