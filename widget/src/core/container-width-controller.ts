import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * Follows the width of the host's own box (not the viewport: the results may sit in a narrow column of a wide
 * page) and says whether it is below a breakpoint. A width of 0 (not laid out yet) decides nothing.
 */
export class ContainerWidthController implements ReactiveController {
  narrow = false;
  private observer: ResizeObserver | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly breakpoint = 768,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.measure(this.host.getBoundingClientRect().width);
    if (typeof ResizeObserver === "undefined") return;
    this.observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) this.measure(entry.contentRect.width);
    });
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.observer = null;
  }

  measure(width: number): void {
    if (!width) return;
    const narrow = width < this.breakpoint;
    if (narrow === this.narrow) return;
    this.narrow = narrow;
    this.host.requestUpdate();
  }
}
