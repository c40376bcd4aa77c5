// The real service for the tests: `python -m service.app.cli serve` on a free loopback
// port with a temporary SQLite database (as tests/e2e/conftest.py ServerProcess does),
// and a TCP relay in front of it whose connections a test can cut.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The repository's Python (BATTLE_PYTHON overrides: e.g. another checkout's venv). */
function python() {
  if (process.env.BATTLE_PYTHON) return process.env.BATTLE_PYTHON;
  const venv = join(ROOT, ".venv", "bin", "python");
  if (!existsSync(venv)) throw new Error(`${venv} is missing: run \`make install\``);
  return venv;
}

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** Start the service; `env` adds to its environment. */
export async function startServer(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), "ts-client-"));
  const port = await freePort();
  const proc = spawn(python(), ["-m", "service.app.cli", "serve", "--port", String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      BATTLE_DB: join(dir, "battles.db"),
      BATTLE_LOG_LEVEL: "WARNING",
      BATTLE_LIMIT_PER_ADDRESS: "10000000",
      BATTLE_LIMIT_PER_KEY: "10000000",
      BATTLE_LIMIT_STREAMS_PER_ADDRESS: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server did not start:\n${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`the server did not start within 30 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    port,
    async stop() {
      proc.kill("SIGTERM");
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.once("exit", r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP relay to `port`: `cut()` drops every connection open through it (the client
 * sees its stream end mid-way, as when a network or a proxy drops it). */
export async function startRelay(port) {
  const sockets = new Set();
  const heads = []; // the request line and headers of each connection, as sent
  const server = createServer((inbound) => {
    const outbound = connect(port, "127.0.0.1");
    inbound.once("data", (chunk) => heads.push(chunk.toString("latin1").split("\r\n\r\n")[0]));
    sockets.add(inbound);
    sockets.add(outbound);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on("error", drop).on("close", drop);
    outbound.on("error", drop).on("close", drop);
  });
  const relayPort = await new Promise((ok) =>
    server.listen(0, "127.0.0.1", () => ok(server.address().port)),
  );
  return {
    baseUrl: `http://127.0.0.1:${relayPort}`,
    heads,
    cut() {
      const n = sockets.size / 2;
      for (const s of sockets) s.destroy();
      sockets.clear();
      return n;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

/** Wait until `check()` answers something truthy. */
export async function until(what, check, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await check();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const SETUP = {
  sides: ["north", "south"],
  width: 8,
  height: 8,
  squads: [
    { id: "n1", side: "north", kind: "soldier", level: 1, x: 1, y: 1 },
    { id: "s1", side: "south", kind: "soldier", level: 1, x: 6, y: 6 },
  ],
};

export const ruling = (n) => ({
  type: "RecordRuling",
  ruling: `ruling ${n}`,
  reason: "test",
  audience: "all",
});
