import { ConfigError, loadConfig, type Config } from "../config.ts";
import { openServiceState, type ServiceState } from "../composition/service-state.ts";
import { AppError } from "../errors.ts";

/**
 * Runs an operator command over the configured service state (DATABASE_URL, else DATA_DIR's SQLite file) and
 * exits with its code.
 * A bad setting or an AppError (unknown store, engine unreachable) ends with its one-line message and exit 2;
 * anything else is a bug and keeps its stack trace.
 */
export async function runCommand(main: (args: string[], config: Config, state: ServiceState) => Promise<number>): Promise<never> {
  try {
    const config = loadConfig(process.env);
    const state = await openServiceState(config);
    const code = await main(process.argv.slice(2), config, state);
    await state.close();
    process.exit(code);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AppError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
