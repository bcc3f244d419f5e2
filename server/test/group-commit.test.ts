import { expect, test } from "bun:test";
import { GroupCommit } from "../src/platform/group-commit.ts";

test("concurrent writes share one commit, and each resolves only after it", async () => {
  const commits: number[][] = [];
  const g = new GroupCommit<number>((items) => void commits.push(items));
  const order: string[] = [];
  const a = g.add([1, 2]).then(() => order.push(`a after ${commits.length} commit(s)`));
  const b = g.add([3]).then(() => order.push(`b after ${commits.length} commit(s)`));
  expect(commits).toEqual([]);
  await Promise.all([a, b]);
  expect(commits).toEqual([[1, 2, 3]]);
  expect(order).toEqual(["a after 1 commit(s)", "b after 1 commit(s)"]);
  await g.add([4]);
  expect(commits).toEqual([[1, 2, 3], [4]]);
});

test("a failed commit rejects every write in it, and later writes still commit", async () => {
  let fail = true;
  const committed: string[] = [];
  const g = new GroupCommit<string>((items) => {
    if (fail) throw new Error("disk full");
    committed.push(...items);
  });
  const results = await Promise.allSettled([g.add(["x"]), g.add(["y"])]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  fail = false;
  await g.add(["z"]);
  expect(committed).toEqual(["z"]);
});

test("with a delay, writes within it share a commit, and flush() commits at once", async () => {
  const commits: number[][] = [];
  const g = new GroupCommit<number>((items) => void commits.push(items), 50);
  const a = g.add([1]);
  await Bun.sleep(5);
  const b = g.add([2]);
  expect(commits).toEqual([]);
  await Promise.all([a, b]);
  expect(commits).toEqual([[1, 2]]);
  const c = g.add([3]);
  void g.flush();
  await c;
  expect(commits).toEqual([[1, 2], [3]]);
});

test("an asynchronous commit runs one at a time; writes arriving meanwhile wait and share the next one", async () => {
  const commits: number[][] = [];
  let running = 0;
  let most = 0;
  const g = new GroupCommit<number>(async (items) => {
    most = Math.max(most, ++running);
    await Bun.sleep(20);
    commits.push(items);
    running--;
  });
  const first = g.add([1]);
  await Bun.sleep(5);
  // The first commit is under way: these three go together in the second.
  const rest = [g.add([2]), g.add([3]), g.add([4])];
  await first;
  expect(commits).toEqual([[1]]);
  await Promise.all(rest);
  expect(commits).toEqual([[1], [2, 3, 4]]);
  expect(most).toBe(1);
});
