import { InvalidJsonError, ValidationError, type ErrorDetail } from "./errors.ts";

/*
 * The main thread's side of a worker thread that answers requests by id (the indexing thread, the events thread,
 * the meaning thread). The thread starts on first use; if it dies, what was waiting fails and the next request
 * starts a new one. Messages the thread sends without an id are notices, handed to `onNotice`. A thread given
 * `idleMs` ends once nothing has waited for an answer that long, and the next request starts it again: a thread is
 * a runtime of its own, and what its heap held (megabytes for the modules it loaded alone) goes with it.
 */

/** Why a request body was refused on a thread: the 400 the request answers with. */
export interface Refusal {
  invalidJson: boolean;
  message: string;
  details?: ErrorDetail[];
}

/** The refusal a thread sends back for a client's bad body; null for any other failure. */
export function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof InvalidJsonError || error instanceof ValidationError)) return null;
  return { invalidJson: error instanceof InvalidJsonError, message: error.message, details: error.details };
}

/** The error a refusal is raised as on the main thread. */
export function refusalError({ invalidJson, message, details }: Refusal): Error {
  return invalidJson ? new InvalidJsonError(message, details) : new ValidationError(message, details);
}

/**
 * A body whose buffer can be moved to a thread: the body itself when it fills its buffer, else a copy, so that a
 * view into a pooled buffer never takes that buffer away.
 */
export function movableCopy(body: Uint8Array): Uint8Array {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
}

export interface ThreadChannelOptions<Notice> {
  /** The thread's module. */
  url: URL;
  /** Sent first to every thread started (what to open). */
  open: unknown;
  /** A message without an id. */
  onNotice?: (notice: Notice) => void;
  /** What waiting requests fail with when the thread dies or is closed. */
  failure: (message: string) => Error;
  /** End the thread once no request has waited for an answer this long (ms); absent: it runs until closed. */
  idleMs?: number;
  /** The thread must not keep a process alive that has nothing else to do. */
  unref?: boolean;
}

export class ThreadChannel<Request, Reply extends { id: number }, Notice = never> {
  private worker: Worker | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();

  constructor(private readonly o: ThreadChannelOptions<Notice>) {}

  /** Sends the request made with a fresh id; resolves with the reply that carries it. */
  ask(request: (id: number) => Request, transfer: Transferable[] = []): Promise<Reply> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(request(id), transfer);
    });
  }

  /** Sends a message that waits for no reply. */
  tell(message: Request): void {
    this.started().postMessage(message);
  }

  /** Starts the thread now rather than on first use. */
  start(): void {
    this.started();
  }

  /** Whether a thread runs now (an idle one has ended). */
  get running(): boolean {
    return this.worker !== null;
  }

  close(): void {
    this.end();
    this.failAll(this.o.failure("the thread was stopped"));
  }

  private end(): void {
    this.stayAwake();
    this.worker?.terminate();
    this.worker = null;
  }

  /** Cancels a pending idle end. */
  private stayAwake(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private started(): Worker {
    this.stayAwake();
    if (this.worker) return this.worker;
    const worker = new Worker(this.o.url.href);
    worker.onmessage = (event: MessageEvent<Reply | Notice>) => {
      const message = event.data;
      if (typeof (message as { id?: unknown }).id !== "number") return this.o.onNotice?.(message as Notice);
      const reply = message as Reply;
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      waiter?.resolve(reply);
      if (this.o.idleMs !== undefined && this.waiting.size === 0 && this.worker === worker) {
        this.idleTimer = setTimeout(() => this.end(), this.o.idleMs);
        this.idleTimer.unref?.();
      }
    };
    worker.onerror = (event) => {
      worker.terminate();
      if (this.worker === worker) this.worker = null;
      this.failAll(this.o.failure(`the thread failed: ${event.message}`));
    };
    if (this.o.unref) (worker as unknown as { unref(): void }).unref();
    worker.postMessage(this.o.open);
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
