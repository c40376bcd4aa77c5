// Commands, idempotency, expected versions, reach, player keys and problems, against a
// real server.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BattleClient, ProblemError } from "../dist/index.js";
import { SETUP, ruling, startServer } from "./server.mjs";

let server;
let client;
before(async () => {
  server = await startServer();
  client = new BattleClient({ baseUrl: server.baseUrl });
});
after(() => server?.stop());

test("a battle is created, viewed with what it awaits, and given a command", async () => {
  const { battle, keys } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  assert.equal(battle.version, 1);
  assert.ok(keys.sides.north && keys.observer);
  const view = await battle.view();
  assert.equal(view.ruleset, "quickstart");
  assert.equal(view.version, 1);
  const first = view.awaiting[0];
  assert.ok(first.commands.includes("RollForPriority"), JSON.stringify(view.awaiting));
  const answer = await battle.command({ type: "RollForPriority" });
  assert.equal(answer.events[0].data.type, "PriorityDecided");
  assert.equal(answer.version, 2);
  assert.equal(battle.version, 2);
  // the answer says what the battle awaits now, in the caller's view
  assert.deepEqual(answer.awaiting, (await battle.view()).awaiting);
});

test("an idempotency key makes a command sent twice apply once", async () => {
  const { battle } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  const one = await battle.command(ruling(1), { idempotencyKey: "same-1" });
  const two = await battle.command(ruling(1), { idempotencyKey: "same-1" });
  assert.equal(two.replayed, true);
  assert.equal(two.version, one.version);
  const three = await battle.command(ruling(1)); // a new key per call by default
  assert.equal(three.version, one.version + 1);
  const page = await battle.events();
  assert.deepEqual(page.events.map((e) => e.data.type), ["BattleCreated", "RulingRecorded", "RulingRecorded"]);
});

test("a lost answer is sent again with the same idempotency key, and applied once", async () => {
  const { battle, keys } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  const sent = [];
  let dropped = false;
  // A fetch whose first answer is lost on the way back (the command was applied).
  const lossy = async (input, init) => {
    sent.push(new Headers(init.headers).get("Idempotency-Key"));
    const res = await fetch(input, init);
    if (!dropped && init.method === "POST") {
      dropped = true;
      await res.text();
      throw new TypeError("fetch failed: the connection was reset");
    }
    return res;
  };
  const flaky = new BattleClient({ baseUrl: server.baseUrl, fetch: lossy }).battle(battle.id, keys.referee);
  const answer = await flaky.command(ruling(2));
  assert.equal(sent.length, 2);
  assert.equal(sent[0], sent[1]);
  assert.equal(answer.replayed, true);
  assert.equal((await battle.events()).events.length, 2); // BattleCreated and one ruling
});

test("expected_version is tracked when asked, and a stale one is a 409 problem", async () => {
  const { battle, keys } = await client.createBattle(
    { ruleset: "quickstart", setup: SETUP },
    { trackVersion: true },
  );
  await battle.command(ruling(1)); // sent with expected_version 1
  const other = client.battle(battle.id, keys.referee);
  await other.command(ruling(2)); // moves the battle on behind `battle`'s back
  await assert.rejects(battle.command(ruling(3)), (e) => {
    assert.ok(e instanceof ProblemError);
    assert.equal(e.status, 409);
    assert.equal(e.currentVersion, 3);
    return true;
  });
  await battle.view();
  assert.equal((await battle.command(ruling(3))).version, 4);
  // null sends none
  await other.command(ruling(4));
  assert.equal((await battle.command(ruling(5), { expectedVersion: null })).version, 6);
});

test("reach answers a unit's squares; a hidden or unknown unit is a 404 problem", async () => {
  const { battle, keys } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  await battle.command({ type: "RollForPriority" });
  const mine = (await battle.view()).state.active_side === "north" ? "n1" : "s1";
  const reach = await battle.reach(mine);
  assert.equal(reach.unit, mine);
  assert.ok(reach.squares.length > 0);
  assert.ok(reach.squares.every((s) => Number.isInteger(s.x) && Number.isInteger(s.cost)));
  const north = client.battle(battle.id, keys.sides.north);
  await assert.rejects(north.reach("nobody"), (e) => e instanceof ProblemError && e.status === 404);
});

test("player keys are minted, listed without secrets, and refused once revoked", async () => {
  const { battle } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  const minted = await battle.keys.mint({ role: "side", side: "north", label: "Alice" });
  assert.ok(minted.key && minted.key_id);
  assert.equal(minted.label, "Alice");
  const listed = await battle.keys.list();
  assert.deepEqual(listed.map((k) => k.key_id), [minted.key_id]);
  assert.ok(!("key" in listed[0]));
  const alice = client.battle(battle.id, minted.key);
  assert.equal((await alice.view()).side, "north");
  await battle.keys.revoke(minted.key_id);
  await assert.rejects(alice.view(), (e) => e instanceof ProblemError && e.status === 401);
  // a side key may not mint
  await assert.rejects(
    alice.keys.list(),
    (e) => e instanceof ProblemError && (e.status === 401 || e.status === 403),
  );
});

test("a refusal is a ProblemError with the problem's fields", async () => {
  const { battle, keys } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  const south = client.battle(battle.id, keys.sides.south);
  await assert.rejects(south.command({ type: "MoveSquad", squad: "n1", x: 2, y: 2 }), (e) => {
    assert.ok(e instanceof ProblemError);
    assert.ok(e.status === 403 || e.status === 422, String(e.status));
    assert.ok(e.detail.length > 0);
    assert.equal(e.message, e.detail);
    assert.ok(e.type.startsWith("urn:battle-service:problem:"));
    assert.equal(e.problem.instance, `/battles/${battle.id}/commands`);
    return true;
  });
  await assert.rejects(
    client.battle("no-such-battle", keys.referee).view(),
    (e) => e instanceof ProblemError && e.status === 403 && /another battle/.test(e.detail),
  );
});

test("disputes are listed in the key's view: raised by a side, settled by the referee", async () => {
  const { battle, keys } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  const north = client.battle(battle.id, keys.sides.north);
  const south = client.battle(battle.id, keys.sides.south);
  assert.deepEqual(await south.disputes(), []);
  const raised = await north.command({ type: "RaiseDispute", versions: [1], claim: "the map is wrong" });
  assert.equal(raised.events[0].data.type, "DisputeRaised");
  const [open] = await south.disputes();
  assert.equal(open.dispute_id, "d1");
  assert.equal(open.status, "open");
  assert.deepEqual(open.versions, [1]);
  assert.equal(open.raised_by, "side:north");
  await battle.command({
    type: "ResolveDispute", dispute: "d1", outcome: "dismissed", ruling: "it is not", rule: "1.1",
  });
  const [settled] = await north.disputes();
  assert.equal(settled.status, "dismissed");
  assert.equal(settled.ruling, "it is not");
  assert.equal(settled.resolved_at, raised.version + 1);
});
