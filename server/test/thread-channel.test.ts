import { afterEach, expect, test } from "bun:test";
import { ThreadChannel } from "../src/thread-channel.ts";

/*
 * A thread that ends when idle (ThreadChannel's idleMs) answers every request asked while it ran, ends only once
 * none waits, and the next request starts it again, opened as the first was: nothing asked is lost.
 */

type Request = { open: string } | { id: number; value: number; delayMs: number };
type Reply = { id: number; value: number; before: number; opened: string };

const channels: ThreadChannel<Request, Reply>[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) channel.close();
});

function echo(idleMs?: number): ThreadChannel<Request, Reply> {
  const channel = new ThreadChannel<Request, Reply>({
    url: new URL("./support/echo-thread.ts", import.meta.url),
    open: { open: "the source" },
    failure: (message) => new Error(message),
    ...(idleMs === undefined ? {} : { idleMs }),
  });
  channels.push(channel);
  return channel;
}

const ask = (channel: ThreadChannel<Request, Reply>, value: number, delayMs = 0) => channel.ask((id) => ({ id, value, delayMs }));

async function ended(channel: ThreadChannel<Request, Reply>): Promise<boolean> {
  for (let i = 0; i < 200 && channel.running; i++) await Bun.sleep(10);
  return !channel.running;
}

test("a thread that ends when idle answers every request in flight, ends once none waits, and starts again opened as before", async () => {
  const channel = echo(0);
  expect(channel.running).toBe(false);
  // A slow request and quick ones behind it: the thread must not end while the slow one waits.
  const replies = await Promise.all([ask(channel, 1, 200), ask(channel, 2), ask(channel, 3)]);
  expect(replies.map((r) => r.value)).toEqual([1, 2, 3]);
  expect(replies.map((r) => r.before).sort()).toEqual([0, 1, 2]);
  expect(await ended(channel)).toBe(true);

  const again = await ask(channel, 4);
  expect(again).toMatchObject({ value: 4, before: 0, opened: "the source" });
  expect(await ended(channel)).toBe(true);
});

test("requests closer together than idleMs are answered by the same thread", async () => {
  const channel = echo(60_000);
  expect((await ask(channel, 1)).before).toBe(0);
  expect((await ask(channel, 2)).before).toBe(1);
  expect(channel.running).toBe(true);
});

test("without idleMs a thread runs until closed", async () => {
  const channel = echo();
  await ask(channel, 1);
  await Bun.sleep(100);
  expect(channel.running).toBe(true);
  expect((await ask(channel, 2)).before).toBe(1);
  channel.close();
  expect(channel.running).toBe(false);
});
