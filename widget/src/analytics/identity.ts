/*
 * Anonymous shopper ids: random base-36 strings with no personal data. The user id lives as long as the
 * browser's storage; the session id is renewed after 30 minutes without activity. Where storage is unavailable
 * (disabled, private modes) the ids live for the page only.
 */

export const USER_KEY = "sfs.uid";
export const SESSION_KEY = "sfs.sid";
export const SESSION_IDLE_MS = 30 * 60 * 1000;

export type KeyValueStorage = Pick<Storage, "getItem" | "setItem">;

export function randomId(): string {
  const words = crypto.getRandomValues(new Uint32Array(3));
  return Array.from(words, (w) => w.toString(36).padStart(7, "0")).join("");
}

const ID = /^[a-z0-9]{1,64}$/;

export class Identity {
  private memoryUser: string | null = null;
  private memorySession: { id: string; at: number } | null = null;

  constructor(
    private readonly storage: KeyValueStorage | null,
    private readonly now: () => number = Date.now,
  ) {}

  get userId(): string {
    const stored = this.read(USER_KEY) ?? this.memoryUser;
    if (stored && ID.test(stored)) return stored;
    const id = randomId();
    this.memoryUser = id;
    this.write(USER_KEY, id);
    return id;
  }

  /** The current session id; a shopper action (an event, a search) counts as activity and extends it. */
  sessionId(touch = true): string {
    const now = this.now();
    let session = this.memorySession;
    const raw = this.read(SESSION_KEY);
    if (raw) {
      try {
        const parsed = JSON.parse(raw) as { id?: unknown; at?: unknown };
        if (typeof parsed.id === "string" && ID.test(parsed.id) && typeof parsed.at === "number")
          session = { id: parsed.id, at: parsed.at };
      } catch {
        // a damaged entry starts a new session
      }
    }
    if (!session || now - session.at > SESSION_IDLE_MS || now < session.at - SESSION_IDLE_MS) session = { id: randomId(), at: now };
    if (touch) session = { id: session.id, at: now };
    this.memorySession = session;
    this.write(SESSION_KEY, JSON.stringify(session));
    return session.id;
  }

  private read(key: string): string | null {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  private write(key: string, value: string): void {
    try {
      this.storage?.setItem(key, value);
    } catch {
      // storage full or refused: the in-memory copy serves this page
    }
  }
}
