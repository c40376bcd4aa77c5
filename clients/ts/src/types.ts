/**
 * The service's shapes, named from the OpenAPI document's types (src/schema.d.ts, made by
 * `npm run generate`), and narrowed per ruleset where the document says how.
 */
import type { components } from "./schema.js";

export type Schemas = components["schemas"];

/** The five rulesets this client knows by name (a server may serve others). */
export type Ruleset = "quickstart" | "skirmish" | "tactical" | "warfare" | "phased";

export type Prompt = Schemas["Prompt"];
export type NextDie = Schemas["NextDie"];
export type Reach = Schemas["Reach"];
export type Problem = Schemas["Problem"];
export type Receipt = Schemas["Receipt"];
export type BattleKeys = Schemas["BattleKeys"];
export type CreatedBattleKey = Schemas["CreatedBattleKey"];
export type BattleKeyOut = Schemas["BattleKeyOut"];
export type CreateBattleKeyRequest = Schemas["CreateBattleKeyRequest"];
export type CreateBattleRequest = Schemas["CreateBattleRequest"];
export type BattleCreatedResponse = Schemas["BattleCreatedResponse"];
export type SealedEventOut = Schemas["SealedEventOut"];
export type DisputeOut = Schemas["DisputeOut"];
export type DisputeList = Schemas["DisputeList"];
export type AnyCommand = Schemas["CommandRequest"]["command"];

/** `T` narrowed to the members whose `ruleset` is `R`; all of `T` when the document does
 * not discriminate it by ruleset. */
type ByRuleset<T, R extends string> = [Extract<T, { ruleset: R }>] extends [never]
  ? T
  : Extract<T, { ruleset: R }>;

/** A battle as the caller sees it (`GET /battles/{id}`), with its `awaiting`. */
export type BattleView<R extends string = Ruleset> = ByRuleset<Schemas["BattleView"], R>;
/** A whole event of a battle of ruleset `R`. */
export type BattleEvent<R extends string = Ruleset> = ByRuleset<Schemas["EventOut"], R>;
/** What a stream or a page carries: an event, or a sealed one (the caller may not see it). */
export type StreamEvent<R extends string = Ruleset> = BattleEvent<R> | SealedEventOut;

type Own = {
  quickstart: Schemas["QuickstartCommand"];
  skirmish: Schemas["SkirmishCommand"];
  tactical: Schemas["TacticalCommand"];
  warfare: Schemas["WarfareCommand"];
  phased: Schemas["PhasedCommand"];
};
/** A command a battle of ruleset `R` accepts: one of its own, or one every battle takes. */
export type Command<R extends string = Ruleset> =
  | (R extends keyof Own ? Own[R] : AnyCommand)
  | Schemas["BattleCommand"];

/** The answer to a command or a batch: the events appended, the new version, a receipt
 * for the new head, and what the battle awaits now in the caller's view. */
export type CommandResponse<R extends string = Ruleset> = Omit<
  Schemas["CommandResponse"],
  "events"
> & { events: StreamEvent<R>[]; awaiting?: Prompt[] };

/** What the battle awaits, as a stream said it (SSE `event: awaiting`, WebSocket
 * `{"kind": "awaiting"}`) or a read answered it. */
export interface AwaitingChange {
  battle_id: string;
  version: number;
  awaiting: Prompt[];
}
