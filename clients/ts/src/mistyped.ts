import type { components } from "./schema.js";
type C = components["schemas"]["QuickstartCommand"];
export const a: C = { type: "MoveSquad", squad: "n1" };
export const b: C = { type: "Fly" };
