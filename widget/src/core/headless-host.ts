import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * A host without rendering: runs controllers where nothing is shown (pre-production mode) and in tests.
 * `updates` counts requestUpdate calls.
 */
export class HeadlessHost implements ReactiveControllerHost {
  private readonly controllers = new Set<ReactiveController>();
  updates = 0;
  readonly updateComplete = Promise.resolve(true);

  addController(controller: ReactiveController): void {
    this.controllers.add(controller);
  }

  removeController(controller: ReactiveController): void {
    this.controllers.delete(controller);
  }

  requestUpdate(): void {
    this.updates++;
  }

  connect(): void {
    for (const c of this.controllers) c.hostConnected?.();
  }

  disconnect(): void {
    for (const c of this.controllers) c.hostDisconnected?.();
  }
}
