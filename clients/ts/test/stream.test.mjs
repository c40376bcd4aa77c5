// Live events over SSE and WebSocket: each event once, in order, across dropped
// connections (a relay between the client and the server cuts them); `awaiting` told
// when it changes.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import WebSocket from "ws";
import { BattleClient, ProblemError } from "../dist/index.js";
import { SETUP, ruling, startRelay, startServer, until } from "./server.mjs";

let server;
let relay;
let direct;
before(async () => {
  server = await startServer();
  relay = await startRelay(server.port);
  direct = new BattleClient({ baseUrl: server.baseUrl });
});
after(async () => {
  await relay?.close();
  await server?.stop();
});

for (const transport of ["sse", "ws"]) {
  test(`${transport}: a dropped stream resumes with no duplicate and no gap`, async () => {
    const { battle, keys } = await direct.createBattle({ ruleset: "quickstart", setup: SETUP });
    const viaRelay = new BattleClient({ baseUrl: relay.baseUrl }).battle(battle.id, keys.observer);
    const got = [];
    const drops = [];
    const stop = viaRelay.subscribe((event, id) => got.push([id, event.data?.type ?? "sealed"]), {
      transport,
      WebSocket,
      retryMs: 50,
      onError: (e, willRetry) => drops.push([String(e), willRetry]),
    });
    try {
      await until("the creation event", () => got.length === 1);
      for (let n = 1; n <= 3; n++) await battle.command(ruling(n));
      await until("three rulings", () => got.length === 4);
      // Cut the connection, and append while the client is away.
      assert.ok(relay.cut() >= 1);
      for (let n = 4; n <= 6; n++) await battle.command(ruling(n));
      await until("the rulings given while away", () => got.length >= 7);
      assert.ok(drops.length >= 1 && drops.every(([, retry]) => retry), JSON.stringify(drops));
      // it asked to resume after the last event it had, not from the start
      const asked = relay.heads.filter((h) => h.includes(battle.id)).join("\n");
      const cursor = transport === "sse" ? /^Last-Event-ID: 4$/im : /[?&]after=4[& ]/;
      assert.match(asked, cursor);
      // Cut again mid-stream, twice, with commands racing the reconnects.
      for (let n = 7; n <= 12; n++) {
        await battle.command(ruling(n));
        if (n % 3 === 0) relay.cut();
      }
      await until("every event", () => got.length >= 13);
      await new Promise((r) => setTimeout(r, 300)); // nothing more should come
      assert.deepEqual(
        got.map(([id]) => id),
        Array.from({ length: 13 }, (_, i) => i + 1),
      );
      assert.deepEqual(got[0], [1, "BattleCreated"]);
      assert.ok(got.slice(1).every(([, type]) => type === "RulingRecorded"));
      assert.equal(viaRelay.version, 13);
    } finally {
      stop();
    }
  });

  test(`${transport}: onAwaiting says what the battle awaits, then each change`, async () => {
    const { battle, keys } = await direct.createBattle({ ruleset: "quickstart", setup: SETUP });
    const north = direct.battle(battle.id, keys.sides.north);
    const told = [];
    const events = [];
    const stop = north.subscribe((e, id) => events.push(id), {
      transport,
      WebSocket,
      onAwaiting: (awaiting, change) => told.push([change.version, awaiting]),
    });
    try {
      await until("the first awaiting", () => told.length === 1);
      assert.equal(told[0][0], 1);
      assert.deepEqual(told[0][1], (await north.view()).awaiting);
      await battle.command(ruling(1)); // changes nothing north awaits
      const answer = await battle.command({ type: "RollForPriority" });
      await until("the events", () => events.length === 3);
      await until("the change", () => told.length === 2);
      assert.equal(told[1][0], answer.version);
      const now = (await north.view()).awaiting;
      assert.deepEqual(told[1][1], now);
      assert.notDeepEqual(told[1][1], told[0][1]);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(told.length, 2); // a ruling changed nothing: not told
    } finally {
      stop();
    }
  });

  test(`${transport}: a revoked key ends the subscription with its problem`, async () => {
    const { battle } = await direct.createBattle({ ruleset: "quickstart", setup: SETUP });
    const minted = await battle.keys.mint({ role: "observer", label: "gone" });
    await battle.keys.revoke(minted.key_id);
    const errors = [];
    const stop = direct.battle(battle.id, minted.key).subscribe(() => undefined, {
      transport,
      WebSocket,
      retryMs: 20,
      onError: (e, willRetry) => errors.push([e, willRetry]),
    });
    try {
      await until("the refusal", () => errors.length >= 1);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(errors.length, 1); // not retried
      const [e, willRetry] = errors[0];
      assert.ok(e instanceof ProblemError, String(e));
      assert.equal(e.status, 401);
      assert.equal(willRetry, false);
    } finally {
      stop();
    }
  });
}

for (const transport of ["sse", "ws"]) {
  test(`${transport}: a key revoked while subscribed ends the subscription with its problem`, async () => {
    const { battle } = await direct.createBattle({ ruleset: "quickstart", setup: SETUP });
    const minted = await battle.keys.mint({ role: "observer", label: "later gone" });
    const got = [];
    const errors = [];
    const stop = direct.battle(battle.id, minted.key).subscribe((event) => got.push(event), {
      transport,
      WebSocket,
      retryMs: 20,
      onError: (e, willRetry) => errors.push([e, willRetry]),
    });
    try {
      await until("the creation event", () => got.length === 1);
      await battle.keys.revoke(minted.key_id);
      await until("the end", () => errors.length >= 1);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(errors.length, 1); // not retried
      const [e, willRetry] = errors[0];
      assert.ok(e instanceof ProblemError, String(e));
      assert.equal(e.status, 401);
      assert.ok(e.type.endsWith(":revoked-key"), e.type);
      assert.equal(willRetry, false);
    } finally {
      stop();
    }
  });
}

test("sse: a stream's last problem ends the subscription only with a 401 or 403", async () => {
  // A server whose streams end at once with a problem: the statuses are the problems' own.
  const sent = [
    { type: "urn:battle-service:problem:internal", title: "t", status: 500, detail: "d" },
    "not a problem+json",
    { type: "urn:battle-service:problem:store-unavailable", title: "t", status: 503, detail: "d" },
    { type: "urn:battle-service:problem:not-permitted", title: "t", status: 403, detail: "d" },
  ];
  let asked = 0;
  const http = createServer((req, res) => {
    const body = sent[Math.min(asked++, sent.length - 1)];
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`event: problem\ndata: ${typeof body === "string" ? body : JSON.stringify(body)}\n\n`);
  });
  await new Promise((r) => http.listen(0, "127.0.0.1", r));
  const baseUrl = `http://127.0.0.1:${http.address().port}`;
  const errors = [];
  const stop = new BattleClient({ baseUrl }).battle("b", "k").subscribe(() => undefined, {
    retryMs: 10,
    onError: (e, willRetry) => errors.push([e instanceof ProblemError ? e.status : String(e), willRetry]),
  });
  try {
    await until("the final problem", () => errors.some(([, willRetry]) => !willRetry));
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(errors, [
      [500, true],
      [500, true],
      [503, true],
      [403, false],
    ]);
    assert.equal(asked, 4);
  } finally {
    stop();
    http.close();
  }
});

test("events start after `after`, and unsubscribing stops them", async () => {
  const { battle } = await direct.createBattle({ ruleset: "quickstart", setup: SETUP });
  for (let n = 1; n <= 3; n++) await battle.command(ruling(n));
  const got = [];
  const stop = battle.subscribe((e, id) => got.push(id), { after: 2 });
  await until("the events after 2", () => got.length === 2);
  assert.deepEqual(got, [3, 4]);
  stop();
  await battle.command(ruling(4));
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(got, [3, 4]);
});

test("subscribed at the head, onAwaiting is told what the battle awaits now", async () => {
  const { battle, keys } = await direct.createBattle({ ruleset: "quickstart", setup: SETUP });
  await battle.command({ type: "RollForPriority" });
  const north = direct.battle(battle.id, keys.sides.north);
  const told = [];
  const stop = north.subscribe(() => undefined, {
    after: 2, // nothing to catch up: the stream alone would say nothing until a change
    onAwaiting: (awaiting, change) => told.push([change.version, awaiting]),
  });
  try {
    await until("what north awaits", () => told.length === 1);
    assert.equal(told[0][0], 2);
    assert.deepEqual(told[0][1], (await north.view()).awaiting);
  } finally {
    stop();
  }
});
