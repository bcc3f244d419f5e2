import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * Follows the width of the host's own box (not the viewport: the results may sit in a narrow column of a wide
 * page) and keeps what `classify` makes of it (narrow or not, how many looks fit), updating the host only when
 * that changes, not on every pixel of a resize. A width of 0 (not laid out yet) decides nothing.
 */
export class ContainerWidthController<T> implements ReactiveController {
  private observer: ResizeObserver | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly classify: (width: number) => T,
    public value: T,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    // Before its first render the host is an empty inline box: its container's width decides the first layout,
    // so that a phone is not first drawn wide and then redrawn narrow (a layout shift).
    this.measure(this.host.getBoundingClientRect().width || (this.host.parentElement?.getBoundingClientRect().width ?? 0));
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
    const value = this.classify(width);
    if (value === this.value) return;
    this.value = value;
    this.host.requestUpdate();
  }
}
