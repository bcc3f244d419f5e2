/*
 * How one server replica tells the others that a store's data behind one of their in-process caches changed
 * (its synonym sets, say), so that each drops or refreshes its copy. The replica that made the change has
 * applied it to its own cache already; it does not hear its own notices.
 */

export type ChangeTopic = "synonyms" | "rules" | "behaviour" | "catalog" | "experiments";

/** A store whose `topic` changed, or null when any may have (the feed was interrupted and notices were lost). */
export type ChangeHandler = (storeId: string | null) => void;

export interface ChangeFeed {
  publish(topic: ChangeTopic, storeId: string): Promise<void>;
  subscribe(topic: ChangeTopic, changed: ChangeHandler): void;
}

/** One process holds the only copy of every cache (the embedded SQLite database): there is no one to tell. */
export class SingleProcessFeed implements ChangeFeed {
  async publish(): Promise<void> {}
  subscribe(): void {}
}

/**
 * Per store, a value built from its data (a synonym matcher, a rule book) for the store's generation (its creation
 * time: a store deleted and created again under its id starts anew), dropped when the feed says another replica
 * changed the store's `topic`. A build that fails is not kept: the next use builds again.
 */
export class StoreCache<T> {
  private readonly held = new Map<string, { generation: number; value: Promise<T> }>();

  constructor(feed: ChangeFeed, topic: ChangeTopic) {
    feed.subscribe(topic, (storeId) => (storeId === null ? this.held.clear() : this.drop(storeId)));
  }

  /** The store's value, built with `build` when none is held for its generation. */
  get(store: { id: string; createdAt: number }, build: () => Promise<T>): Promise<T> {
    const known = this.held.get(store.id);
    if (known?.generation === store.createdAt) return known.value;
    const value = build();
    this.held.set(store.id, { generation: store.createdAt, value });
    value.catch(() => this.held.get(store.id)?.value === value && this.held.delete(store.id));
    return value;
  }

  /** The value held for a store (built or being built), if any. */
  current(storeId: string): Promise<T> | undefined {
    return this.held.get(storeId)?.value;
  }

  drop(storeId: string): void {
    this.held.delete(storeId);
  }
}
