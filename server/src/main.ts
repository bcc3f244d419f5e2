import { ConfigError, loadConfig } from "./config.ts";
import { EngineUnavailableError } from "./errors.ts";
import { restartWithHeapSizing } from "./composition/heap-sizing.ts";

try {
  const config = loadConfig(process.env);
  restartWithHeapSizing(config);
  // Loaded once the process holds its heap options: a restart in place reads the server's modules once.
  const { startService } = await import("./composition/start-service.ts");
  const service = await startService(config);
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
