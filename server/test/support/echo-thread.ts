/*
 * A thread for thread-channel.test.ts: answers each request with its value after `delayMs`, and with how many
 * requests this thread has answered before it (a thread started again counts from 0) and what it was opened with.
 */
declare const self: Worker;

let opened: unknown = null;
let answered = 0;

self.onmessage = async (event: MessageEvent<{ open: unknown } | { id: number; value: number; delayMs: number }>) => {
  const message = event.data;
  if ("open" in message) {
    opened = message.open;
    return;
  }
  await Bun.sleep(message.delayMs);
  self.postMessage({ id: message.id, value: message.value, before: answered++, opened });
};
