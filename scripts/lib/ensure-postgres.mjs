// The PostgreSQL suite needs a server. Use TEST_DATABASE_URL (default 127.0.0.1:5432); when
// nothing answers there, start the machine's cluster, or initialise a throwaway one.
import { mkdtempSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { isRoot, run, runQuiet, say, which } from "./run.mjs";

export const DEFAULT_TEST_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

async function answers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function pgBin(name) {
  if (which(name)) return name;
  const versions = runQuiet("sh", ["-c", "ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1"]).stdout.trim();
  return versions ? `/usr/lib/postgresql/${versions}/bin/${name}` : name;
}

/** Returns a connection URL to a server that answers, starting one if needed. */
export async function ensurePostgres() {
  const url = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  if (await answers(url)) return url;

  if (which("pg_ctlcluster")) {
    const clusters = runQuiet("sh", ["-c", "ls /etc/postgresql 2>/dev/null"]).stdout.split(/\s+/).filter(Boolean);
    for (const version of clusters) {
      say(`PostgreSQL does not answer at ${url}: starting the machine's cluster (pg_ctlcluster ${version} main start)`);
      await run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"]);
      if (await answers(url)) return url;
    }
  }

  if (!which("initdb") && !which(pgBin("initdb"))) {
    if (!isRoot) throw new Error(`No PostgreSQL server answers at ${url} and none is installed. Install postgresql or set TEST_DATABASE_URL.`);
    say("PostgreSQL is not installed: installing Debian's postgresql package (apt-get install -y postgresql)");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    await run("apt-get", ["update", "-qq"], { env });
    if ((await run("apt-get", ["install", "-y", "-qq", "postgresql"], { env })) !== 0) throw new Error("Could not install postgresql.");
  }

  // A throwaway cluster in a temporary folder, on a free port, trusted on loopback.
  const dir = mkdtempSync(path.join(tmpdir(), "geoscope-pg-"));
  chmodSync(dir, 0o777);
  const port = 54329;
  const asPostgres = isRoot ? ["runuser", ["-u", "postgres", "--"]] : [null, []];
  const exec = (bin, args) => (asPostgres[0] ? run(asPostgres[0], [...asPostgres[1], bin, ...args]) : run(bin, args));
  say(`starting a temporary PostgreSQL server in ${dir} on 127.0.0.1:${port} for the test run`);
  if ((await exec(pgBin("initdb"), ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8"])) !== 0) {
    throw new Error("initdb failed");
  }
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c max_connections=200`;
  if ((await exec(pgBin("pg_ctl"), ["-D", path.join(dir, "data"), "-o", opts, "-l", path.join(dir, "log"), "-w", "start"])) !== 0) {
    throw new Error(`pg_ctl start failed; see ${path.join(dir, "log")}`);
  }
  const started = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  if (!(await answers(started))) throw new Error("The temporary PostgreSQL server does not answer.");
  return started;
}
