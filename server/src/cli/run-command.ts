import { ConfigError, loadConfig, type Config } from "../config.ts";
import { openServiceDatabase } from "../db/connection.ts";
import { AppError } from "../errors.ts";
import type { Database } from "bun:sqlite";

/**
 * Runs an operator command over the service database of the configured DATA_DIR and exits with its code.
 * A bad setting or an AppError (unknown store, engine unreachable) ends with its one-line message and exit 2;
 * anything else is a bug and keeps its stack trace.
 */
export async function runCommand(main: (args: string[], config: Config, db: Database) => Promise<number>): Promise<never> {
  try {
    const config = loadConfig(process.env);
    const db = openServiceDatabase(config.dataDir, { synchronous: config.dbSynchronous });
    const code = await main(process.argv.slice(2), config, db);
    db.close();
    process.exit(code);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AppError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
