import { randomUUID } from "node:crypto";
import type { ChangeFeed, ChangeHandler, ChangeTopic } from "../change-feed.ts";
import type { Sql } from "./connection.ts";

const CHANNEL = "sfs_changes";

/**
 * The change feed between replicas sharing one PostgreSQL: NOTIFY on a channel every replica LISTENs to. A notice
 * names the replica that sent it, so a replica skips its own. postgres.js listens on a connection of its own and
 * listens again after a reconnect; notices sent meanwhile are lost, so every (re)connection after the first tells
 * the handlers that anything may have changed.
 */
export class PostgresChangeFeed implements ChangeFeed {
  private readonly replica = randomUUID();
  private readonly handlers = new Map<ChangeTopic, ChangeHandler[]>();
  private listening: Promise<{ unlisten(): Promise<void> }> | null = null;

  constructor(private readonly sql: Sql) {}

  /** Resolves once the replica hears the channel: a change published after that reaches it. */
  async start(): Promise<void> {
    let connections = 0;
    this.listening ??= this.sql.listen(
      CHANNEL,
      (payload) => this.heard(payload),
      () => {
        if (connections++ > 0) for (const list of this.handlers.values()) for (const handle of list) handle(null);
      },
    );
    await this.listening;
  }

  async publish(topic: ChangeTopic, storeId: string): Promise<void> {
    await this.sql.notify(CHANNEL, JSON.stringify({ replica: this.replica, topic, storeId }));
  }

  subscribe(topic: ChangeTopic, changed: ChangeHandler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), changed]);
  }

  async close(): Promise<void> {
    await (await this.listening)?.unlisten();
  }

  private heard(payload: string): void {
    let notice: { replica?: unknown; topic?: unknown; storeId?: unknown };
    try {
      notice = JSON.parse(payload);
    } catch {
      return;
    }
    if (notice.replica === this.replica || typeof notice.storeId !== "string") return;
    for (const handle of this.handlers.get(notice.topic as ChangeTopic) ?? []) handle(notice.storeId);
  }
}
