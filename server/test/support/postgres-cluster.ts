import { chownSync, existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./child-server.ts";
import postgres from "postgres";
import { tempDir } from "./test-server.ts";

/*
 * A throwaway PostgreSQL cluster for tests: initdb into a temp directory and pg_ctl on a free loopback port, no
 * root and no Docker. The operating system's packages provide the binaries (.ci/run installs Debian's
 * `postgresql`); PostgreSQL refuses to run as root, so as root the cluster runs as `nobody`. For tests fsync is
 * off: they kill our processes, never the cluster, so PostgreSQL's own crash safety is not what they test. A
 * benchmark asks for a durable cluster (fsync and synchronous commits, PostgreSQL's defaults).
 */

export interface PostgresCluster {
  /** A connection URL for a new, empty database of its own. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

function binDir(): string {
  const onPath = Bun.which("initdb");
  if (onPath) return join(onPath, "..");
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian) ? readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length) return join(debian, versions[0]!, "bin");
  throw new Error("PostgreSQL is not installed: `apt-get install -y postgresql` (Debian), as .ci/run does");
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
  const bin = binDir();
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
