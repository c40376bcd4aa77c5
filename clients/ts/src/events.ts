// Typed events and live messages through the types generated from openapi/openapi.json.
// An event's `ruleset` picks its envelope and, in it, `data.type` picks the event: a warfare
// `RoundStarted` is never taken for tactical's. Compiled with `tsc --strict` by
// tests/e2e/test_typescript_client.py and tests/e2e/test_generated_clients.py.
import type { components } from "./schema.js";

type Schemas = components["schemas"];
export type AnyEvent = Schemas["EventOut"] | Schemas["SealedEventOut"];

/** What a table shows of one event: its ruleset and type, or that it is sealed. */
export function describe(event: AnyEvent): string {
  if ("sealed" in event) return "sealed";
  if (event.ruleset === "warfare" && event.data.type === "RoundStarted") {
    const round: Schemas["WarfareRoundStarted"] = event.data; // narrowed to warfare's own
    return `warfare round ${round.round}: ${round.order.join(", ")}`;
  }
  return `${event.ruleset}.${event.data.type}`;
}

/** One WebSocket message, by its `kind`. */
export function onMessage(message: Schemas["WebSocketMessage"]): string {
  switch (message.kind) {
    case "event":
      return describe(message.event);
    case "awaiting":
      return message.awaiting.map((p) => `${p.id}: ${p.commands.join("|")}`).join("; ");
    case "heartbeat":
      return "";
    case "problem":
      return `refused: ${message.status} ${message.detail}`;
  }
}

/** A command body typed for a tactical battle (its `ruleset` is checked by the server). */
export const ruling: Schemas["TacticalCommandRequest"] = {
  ruleset: "tactical",
  command: { type: "RecordRuling", ruling: "the bridge holds", reason: "map" },
};
