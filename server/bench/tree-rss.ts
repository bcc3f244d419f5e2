import { readdirSync, readFileSync } from "node:fs";

/** Resident bytes of a process and its descendants (threads are in their process), and the file-backed part. */
export function treeRss(pid: number): { rss: number; file: number } {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the second field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  let rss = 0;
  let file = 0;
  for (const queue = [pid]; queue.length; ) {
    const p = queue.pop()!;
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
      rss += kb("VmRSS");
      file += kb("RssFile");
    } catch {
      continue;
    }
    queue.push(...(children.get(p) ?? []));
  }
  return { rss, file };
}
