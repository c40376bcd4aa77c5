// Batches: several commands applied all or none, with table dice per command.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BattleClient, ProblemError, withTableDice } from "../dist/index.js";
import { SETUP, ruling, startServer } from "./server.mjs";

let server;
let client;
before(async () => {
  server = await startServer();
  client = new BattleClient({ baseUrl: server.baseUrl });
});
after(() => server?.stop());

test("a batch appends every command's events at once, with one receipt and awaiting", async () => {
  const { battle } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  const answer = await battle.batch([
    { command: ruling(1) },
    { command: { type: "RollForPriority" } },
    { command: ruling(2) },
  ]);
  assert.deepEqual(
    answer.events.map((e) => e.data.type),
    ["RulingRecorded", "PriorityDecided", "RulingRecorded"],
  );
  assert.equal(answer.version, 4);
  assert.equal(answer.receipt.version, 4);
  assert.deepEqual(answer.awaiting, (await battle.view()).awaiting);
  // sent again with its idempotency key: answered, not applied twice
  const again = await battle.batch([{ command: ruling(3) }], { idempotencyKey: "b-1" });
  const replay = await battle.batch([{ command: ruling(3) }], { idempotencyKey: "b-1" });
  assert.equal(replay.replayed, true);
  assert.equal(replay.version, again.version);
});

test("a refused command refuses the batch: its index, and nothing appended", async () => {
  const { battle } = await client.createBattle({ ruleset: "quickstart", setup: SETUP });
  await assert.rejects(
    battle.batch([{ command: ruling(1) }, { command: { type: "MoveSquad", squad: "nobody", x: 1, y: 1 } }]),
    (e) => e instanceof ProblemError && e.index === 1 && e.status >= 400 && e.status < 500,
  );
  assert.equal((await battle.view()).version, 1);
  // a stale expected version: 409, nothing appended
  await assert.rejects(
    battle.batch([{ command: ruling(1) }], { expectedVersion: 0 }),
    (e) => e instanceof ProblemError && e.status === 409,
  );
  assert.equal((await battle.view()).version, 1);
});

test("table dice in a batch are asked for the command that lacks them", async () => {
  const { battle } = await client.createBattle({
    ruleset: "quickstart",
    setup: SETUP,
    client_dice: "any",
  });
  const asked = [];
  const table = withTableDice(battle, (die, context) => {
    asked.push(context.index);
    return Array.from({ length: die.count ?? 1 }, () => 2);
  });
  const answer = await table.batch([{ command: ruling(1) }, { command: { type: "RollForPriority" } }]);
  assert.ok(asked.length >= 1 && asked.every((i) => i === 1), JSON.stringify(asked));
  assert.deepEqual(answer.events.map((e) => e.data.type), ["RulingRecorded", "PriorityDecided"]);
});
