/*
 * Where the service's durable state lives: the embedded SQLite file or a PostgreSQL database (DATABASE_URL).
 * Passed to what opens connections of its own (the indexing thread), so it reads the same state as the server.
 */
export type StateSource = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };
