import type { Logger } from "../log.ts";

/*
 * The parts of the service that run beside requests (workers, threads, batched writes). The composition root
 * lists them once, each after the parts it uses; they start in that order and stop in the reverse one, so a part
 * never runs while something it uses is stopped.
 */

export interface ServicePart {
  name: string;
  start?(): void | Promise<void>;
  /** Finishes or hands back what is under way; what was acknowledged stays kept. */
  stop?(): void | Promise<void>;
}

export async function startParts(parts: readonly ServicePart[]): Promise<void> {
  for (const part of parts) await part.start?.();
}

/** Stops every part, the last started first; one that fails to stop is logged and the others still stop. */
export async function stopParts(parts: readonly ServicePart[], log: Logger): Promise<void> {
  for (const part of [...parts].reverse()) {
    try {
      await part.stop?.();
    } catch (error) {
      log.error("a part of the service failed to stop", { part: part.name, error: (error as Error).message });
    }
  }
}
