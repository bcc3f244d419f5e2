import { bulkOf, type Bulk } from "./catalog-cache.ts";

/*
 * The demo catalog's conversion on a worker thread (convert-worker.ts), started before the server so that its
 * first pass (reading and keying every row, about 2 s) overlaps the server's start-up; the products themselves
 * need the server's URL and are built when `build` gives it.
 */

export type ToWorker =
  | { type: "plan"; dataDir: string; limit: number | undefined }
  | { type: "build"; baseUrl: string; firstBulk: number; bulk: number };

export type FromWorker =
  | { type: "planned"; total: number }
  | { type: "bulk"; json: string; count: number }
  | { type: "done" }
  | { type: "error"; message: string };

export interface BulkSizes {
  /** A small first bulk: the first products become searchable a few seconds earlier. */
  first: number;
  rest: number;
}

export class Conversion {
  private readonly worker: Worker;
  private readonly inbox: FromWorker[] = [];
  private waiting: (() => void) | null = null;
  private building = false;
  /** performance.now() when the last product was converted. */
  finishedAt: number | null = null;

  constructor(source: { dataDir: string; limit: number | undefined }) {
    this.worker = new Worker(new URL("./convert-worker.ts", import.meta.url).href);
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => this.receive(event.data);
    this.worker.onerror = (event) => this.receive({ type: "error", message: event.message });
    this.send({ type: "plan", ...source });
  }

  /** Products in bulks, in catalog order, each already serialised as the body of POST /products. */
  async build(baseUrl: string, sizes: BulkSizes): Promise<{ total: number; bulks: AsyncIterable<Bulk> }> {
    if (this.building) throw new Error("a conversion is built once");
    this.building = true;
    this.send({ type: "build", baseUrl, firstBulk: sizes.first, bulk: sizes.rest });
    const planned = await this.next();
    if (planned.type !== "planned") throw this.failure(planned);
    return { total: planned.total, bulks: this.bulks() };
  }

  stop(): void {
    this.worker.terminate();
  }

  private async *bulks(): AsyncGenerator<Bulk> {
    try {
      for (;;) {
        const message = await this.next();
        if (message.type === "done") {
          this.finishedAt = performance.now();
          return;
        }
        if (message.type !== "bulk") throw this.failure(message);
        yield bulkOf(message.json, message.count);
      }
    } finally {
      this.stop();
    }
  }

  private failure(message: FromWorker): Error {
    return new Error(`demo catalog conversion failed: ${message.type === "error" ? message.message : `unexpected ${message.type}`}`);
  }

  private send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromWorker): void {
    this.inbox.push(message);
    this.waiting?.();
  }

  private async next(): Promise<FromWorker> {
    while (this.inbox.length === 0) await new Promise<void>((wake) => (this.waiting = wake));
    this.waiting = null;
    return this.inbox.shift()!;
  }
}
