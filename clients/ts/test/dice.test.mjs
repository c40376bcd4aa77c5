// Table dice: withTableDice asks the prompt for each die the service names (`next_die`)
// and sends the command again with one more, until it is taken.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BattleClient, ProblemError, withTableDice } from "../dist/index.js";
import { SETUP, startServer } from "./server.mjs";

let server;
let client;
before(async () => {
  server = await startServer();
  client = new BattleClient({ baseUrl: server.baseUrl });
});
after(() => server?.stop());

const rolls = (obj) =>
  Array.isArray(obj)
    ? obj.flatMap(rolls)
    : obj && typeof obj === "object"
      ? [...(obj.kind === "roll" ? [obj] : []), ...Object.values(obj).flatMap(rolls)]
      : [];

test("each die the service names is asked of the prompt, and the command is taken", async () => {
  const { battle } = await client.createBattle({
    ruleset: "quickstart",
    setup: SETUP,
    client_dice: "any",
  });
  const asked = [];
  const table = withTableDice(battle, (die, context) => {
    asked.push({ ...die, had: context.dice.length });
    return Array.from({ length: die.count ?? 1 }, () => Math.min(die.sides, 3));
  });
  const answer = await table.command({ type: "RollForPriority" });
  assert.ok(asked.length >= 1);
  // each ask came with the dice given so far, one more each time
  assert.deepEqual(
    asked.map((a) => a.had),
    asked.map((_, i) => asked.slice(0, i).reduce((n, a) => n + (a.count ?? 1), 0)),
  );
  for (const die of asked) {
    assert.ok(die.sides >= 2 && die.purpose.length > 0, JSON.stringify(die));
  }
  const used = rolls(answer.events);
  assert.ok(used.length >= 1);
  assert.ok(used.every((r) => r.source === "client"), JSON.stringify(used));
  assert.equal(answer.version, 2);
});

test("a command that rolls nothing goes through the same call", async () => {
  const { battle } = await client.createBattle({
    ruleset: "quickstart",
    setup: SETUP,
    client_dice: "any",
  });
  const table = withTableDice(battle, () => assert.fail("no die to ask"));
  const answer = await table.command({ type: "RecordRuling", ruling: "r", reason: "x", audience: "all" });
  assert.equal(answer.events[0].data.type, "RulingRecorded");
});

test("a die out of range from the prompt is refused before it is sent", async () => {
  const { battle } = await client.createBattle({
    ruleset: "quickstart",
    setup: SETUP,
    client_dice: "any",
  });
  const table = withTableDice(battle, (die) => die.sides + 1);
  await assert.rejects(table.command({ type: "RollForPriority" }), RangeError);
  assert.equal((await battle.view()).version, 1);
});

test("a refusal that is not for a die is thrown as it is", async () => {
  const { battle, keys } = await client.createBattle({
    ruleset: "quickstart",
    setup: SETUP,
    client_dice: "any",
  });
  let asked = 0;
  const observer = client.battle(battle.id, keys.observer);
  const table = withTableDice(observer, () => (asked++, 1));
  await assert.rejects(table.command({ type: "RollForPriority" }), (e) => {
    return e instanceof ProblemError && e.status === 403 && e.nextDie === undefined;
  });
  assert.equal(asked, 0);
});

test("an upheld dispute's correcting commands are each asked their own dice", async () => {
  const { battle } = await client.createBattle({
    ruleset: "quickstart",
    setup: SETUP,
    client_dice: "any",
  });
  const table = withTableDice(battle, (die) => Array.from({ length: die.count ?? 1 }, () => 2));
  const rolled = await table.command({ type: "RollForPriority" });
  await table.command({ type: "RaiseDispute", versions: [rolled.version], claim: "a cocked die" });
  const asked = [];
  const fair = withTableDice(battle, (die, context) => {
    asked.push(context.index);
    return Array.from({ length: die.count ?? 1 }, () => Math.min(die.sides, 4));
  });
  const again = { command: { type: "RollForPriority" } };
  const answer = await fair.command({
    type: "ResolveDispute", dispute: "d1", outcome: "upheld", ruling: "roll again", rule: "dice",
    undo_to: rolled.version - 1, corrections: [again],
  });
  assert.ok(asked.length >= 1 && asked.every((i) => i === 0), JSON.stringify(asked));
  const types = answer.events.map((e) => e.data.type);
  assert.equal(types[0], "BattleUndone");
  assert.equal(types.at(-1), "DisputeResolved");
  const used = rolls(answer.events.slice(1, -1));
  assert.ok(used.length >= 1);
  assert.ok(used.every((r) => r.source === "client" && r.values.every((v) => v === 4)), JSON.stringify(used));
  // the correction given as it was: its command has no dice of its own in the caller's list
  assert.equal(again.dice, undefined);
});

test("a resolution given dice of its own throws before anything is sent; a dismissal goes without", async () => {
  const { battle } = await client.createBattle({
    ruleset: "quickstart",
    setup: SETUP,
    client_dice: "any",
  });
  const table = withTableDice(battle, (die) => Array.from({ length: die.count ?? 1 }, () => 1));
  const rolled = await table.command({ type: "RollForPriority" });
  await table.command({ type: "RaiseDispute", versions: [rolled.version], claim: "a cocked die" });
  const before = (await battle.view()).version;
  const dismissal = { type: "ResolveDispute", dispute: "d1", outcome: "dismissed", ruling: "it stands", rule: "dice" };
  const upheld = { ...dismissal, outcome: "upheld", undo_to: rolled.version - 1, corrections: [{ command: { type: "RollForPriority" } }] };
  for (const command of [dismissal, upheld]) {
    // as the Python library's ValueError: the service refuses them (422 dice-error)
    await assert.rejects(table.command(command, { dice: [3] }), RangeError);
  }
  assert.equal((await battle.view()).version, before); // nothing sent, nothing appended
  let asked = 0;
  const answer = await withTableDice(battle, () => (asked++, 1)).command(dismissal);
  assert.deepEqual(answer.events.map((e) => e.data.type), ["DisputeResolved"]);
  assert.equal(asked, 0);
});
