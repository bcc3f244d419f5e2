import type { Scheduler } from "./scheduler.ts";

/** Runs the last scheduled call once `delayMs` passed without another one. */
export class Debouncer {
  private handle: unknown = null;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly delayMs: number,
  ) {}

  schedule(fn: () => void): void {
    this.cancel();
    this.handle = this.scheduler.setTimeout(() => {
      this.handle = null;
      fn();
    }, this.delayMs);
  }

  cancel(): void {
    if (this.handle !== null) this.scheduler.clearTimeout(this.handle);
    this.handle = null;
  }
}
