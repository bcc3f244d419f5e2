import { ConfigError, loadConfig } from "./config.ts";
import { EngineUnavailableError } from "./errors.ts";
import { startService } from "./composition/start-service.ts";

try {
  const service = await startService(loadConfig(process.env));
  const shutdown = async () => {
    await service.stop();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
} catch (error) {
  if (error instanceof ConfigError || error instanceof EngineUnavailableError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
