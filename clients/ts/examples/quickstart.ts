// A quickstart battle through the client generated from openapi/openapi.json
// (`npm run generate`: openapi-typescript types, called with openapi-fetch).
// Usage: node examples/dist/quickstart.js http://127.0.0.1:8000
// Prints one JSON line: the battle, its version and the event types the commands appended.
import createClient from "openapi-fetch";
import type { components, paths } from "../src/schema.js";

type Schemas = components["schemas"];
type QuickstartCommand = Schemas["QuickstartCommand"];
type QuickstartSetup = Schemas["QuickstartSetup"];

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8000";
const api = createClient<paths>({ baseUrl });

const setup: QuickstartSetup = {
  sides: ["north", "south"],
  width: 8,
  height: 8,
  squads: [
    { id: "n1", side: "north", kind: "soldier", level: 1, x: 1, y: 1 },
    { id: "s1", side: "south", kind: "soldier", level: 1, x: 6, y: 6 },
  ],
};

const created = await api.POST("/battles", {
  body: { ruleset: "quickstart", setup, title: "A typed skirmish at the ford" },
});
if (!created.data) throw new Error(`createBattle: ${JSON.stringify(created.error)}`);
const { battle_id, keys } = created.data;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

// The event types in a list of events; a sealed event (one the caller may not see) has no
// data. Each event's `data` is typed: a union of every ruleset's events, by `type`.
function typesOf(events: ReadonlyArray<{ data?: { type: string }; sealed?: true }>): string[] {
  return events.map((e) => e.data?.type ?? "(sealed)");
}

async function command(key: string, command: QuickstartCommand): Promise<string[]> {
  const r = await api.POST("/battles/{battle_id}/commands", {
    params: { path: { battle_id }, header: bearer(key) },
    body: { command },
  });
  if (!r.data) throw new Error(`${command.type}: ${JSON.stringify(r.error)}`);
  return typesOf(r.data.events);
}

const appended: string[] = [];
appended.push(...(await command(keys.referee, { type: "RollForPriority" })));

// The view is one shape per ruleset, picked by `ruleset`: narrow it, then its state is typed.
const view = await api.GET("/battles/{battle_id}", {
  params: { path: { battle_id }, header: bearer(keys.referee) },
});
if (!view.data) throw new Error(`getBattle: ${JSON.stringify(view.error)}`);
if (view.data.ruleset !== "quickstart") throw new Error(`not quickstart: ${view.data.ruleset}`);
const side = view.data.state.active_side;
if (side === null) throw new Error("no side is active");
const [mine, theirs, to] = side === "north" ? ["n1", "s1", [5, 5]] : ["s1", "n1", [2, 2]];
const sideKey = keys.sides[side];
if (sideKey === undefined) throw new Error(`no key for side ${side}`);

appended.push(...(await command(sideKey, { type: "MoveSquad", squad: mine, x: to[0]!, y: to[1]! })));
appended.push(...(await command(sideKey, { type: "EndStep" })));
appended.push(...(await command(sideKey, { type: "Attack", squads: [mine], targets: [theirs] })));

const log = await api.GET("/battles/{battle_id}/events", {
  params: { path: { battle_id }, header: bearer(keys.observer), query: { after: 0, limit: 100 } },
});
if (!log.data) throw new Error(`listEvents: ${JSON.stringify(log.error)}`);
console.log(
  JSON.stringify({ battle_id, side, version: log.data.version, appended, logged: typesOf(log.data.events) }),
);
