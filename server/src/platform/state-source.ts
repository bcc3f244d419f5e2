/*
 * Where the service's durable state lives: the embedded SQLite file or a PostgreSQL database (DATABASE_URL).
 * Passed to what opens connections of its own (the indexing thread), so it reads the same state as the server.
 */
export type StateSource =
  /**
   * mmapBytes: how much of the file a thread's connection reads mapped; cacheKib: its page cache (connection.ts's
   * defaults when absent).
   */
  { kind: "sqlite"; path: string; mmapBytes?: number; cacheKib?: number } | { kind: "postgres"; url: string };
