// A table client through @battle-service/client: create a quickstart battle with table
// dice, mint a player key, follow the battle live, answer what it awaits, roll the dice
// the service asks for. Type-checked with `tsc --strict` (tests/e2e/test_ts_library.py).
// Usage: node examples/dist/table.js http://127.0.0.1:8000
import {
  BattleClient,
  ProblemError,
  withTableDice,
  type Command,
  type NextDie,
  type Prompt,
} from "@battle-service/client";

const client = new BattleClient({ baseUrl: process.argv[2] ?? "http://127.0.0.1:8000" });
const { battle } = await client.createBattle({
  ruleset: "quickstart",
  client_dice: "any",
  setup: {
    sides: ["north", "south"],
    width: 8,
    height: 8,
    squads: [
      { id: "n1", side: "north", kind: "soldier", level: 1, x: 1, y: 1 },
      { id: "s1", side: "south", kind: "soldier", level: 1, x: 6, y: 6 },
    ],
  },
});

const alice = await battle.keys.mint({ role: "side", side: "north", label: "Alice" });
const north = client.battle<"quickstart">(battle.id, alice.key);

const stop = north.subscribe(
  (event) => {
    if ("sealed" in event) console.log(`#${event.version} (hidden from north)`);
    else console.log(`#${event.version} ${event.data.type}`);
  },
  {
    onAwaiting: (awaiting: Prompt[]) =>
      console.log("north awaits:", awaiting.map((p) => `${p.reason} (${p.commands.join("|")})`)),
  },
);

// A real table would ask a player to roll; here every die shows its middle.
const roll = (die: NextDie): number[] => {
  console.log(`roll ${die.count ?? 1}d${die.sides} for ${die.purpose} of ${die.subject ?? "-"}`);
  return Array.from({ length: die.count ?? 1 }, () => Math.ceil(die.sides / 2));
};
const referee = withTableDice(battle, roll);
const priority: Command<"quickstart"> = { type: "RollForPriority" };
try {
  const answer = await referee.command(priority);
  console.log(`version ${answer.version}; awaits`, answer.awaiting?.map((p) => p.id));
} catch (e) {
  if (e instanceof ProblemError) console.error(`${e.status} ${e.code}: ${e.detail}`);
  else throw e;
} finally {
  setTimeout(stop, 500);
}
