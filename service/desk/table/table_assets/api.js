// The page's one door to the service: everything goes through the JavaScript library
// (clients/ts, built to /table/lib/); swapping the library means changing this file only.

import {BattleClient, ProblemError, withTableDice} from "/table/lib/index.js";

const client = new BattleClient({baseUrl: window.location.origin});

/** The problem's `detail` (or the error's message): what the page shows for a failure. */
export function explain(error) {
  if (error instanceof ProblemError) return error.detail || error.title || `HTTP ${error.status}`;
  return (error && error.message) || String(error);
}

/** Create a battle; answers {id, referee, sides} (sides: the side ids). */
export async function createBattle(ruleset, setup, tableDice, title) {
  const body = {ruleset, setup, client_dice: tableDice ? "any" : "none"};
  if (title) body.title = title;
  const {battle, keys} = await client.createBattle(body);
  return {id: battle.id, referee: battle.key, sides: Object.keys(keys.sides || {})};
}

/** One battle through one key: its view, events, disputes, reach, commands, keys and live
 * stream. */
export function open(id, key, askDie) {
  const battle = client.battle(id, key);
  const table = withTableDice(battle, askDie);
  return {
    id,
    key,
    view: () => battle.view(),
    setup: async () => {
      const page = await battle.events(0, 1);
      const first = page.events[0];
      return first && !first.sealed && first.data ? first.data.setup : null;
    },
    events: (after, limit) => battle.events(after, limit),
    disputes: () => battle.disputes(),
    reach: (unit) => battle.reach(unit),
    command: (command, tableDice) => (tableDice ? table.command(command) : battle.command(command)),
    mintKey: (side, label) => battle.keys.mint({role: "side", side, label}),
    listKeys: () => battle.keys.list(),
    revokeKey: (keyId) => battle.keys.revoke(keyId),
    // onChange(version): the version an event or an awaiting change is of; from `after` on
    subscribe: (onChange, onError, after) =>
      battle.subscribe((event, id) => onChange(id), {
        transport: "sse", after, onAwaiting: (awaiting, change) => onChange(change.version), onError,
      }),
  };
}
