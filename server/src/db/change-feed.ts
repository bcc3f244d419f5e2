/*
 * How one server replica tells the others that a store's data behind one of their in-process caches changed
 * (its synonym sets, say), so that each drops or refreshes its copy. The replica that made the change has
 * applied it to its own cache already; it does not hear its own notices.
 */

export type ChangeTopic = "synonyms" | "rules";

/** A store whose `topic` changed, or null when any may have (the feed was interrupted and notices were lost). */
export type ChangeHandler = (storeId: string | null) => void;

export interface ChangeFeed {
  publish(topic: ChangeTopic, storeId: string): Promise<void>;
  subscribe(topic: ChangeTopic, changed: ChangeHandler): void;
  close(): Promise<void>;
}

/** One process holds the only copy of every cache (the embedded SQLite database): there is no one to tell. */
export class SingleProcessFeed implements ChangeFeed {
  async publish(): Promise<void> {}
  subscribe(): void {}
  async close(): Promise<void> {}
}
