/**
 * @battle-service/client: everything from one module, for browsers (dist/ as plain ES
 * modules) and Node 20.
 */
export { BattleClient, type ClientOptions, type CreatedBattle } from "./client.js";
export {
  Battle,
  BattleKeysApi,
  type BatchItem,
  type BatchOptions,
  type BattleOptions,
  type CommandOptions,
  type EventPage,
} from "./battle.js";
export { ProblemError } from "./problem.js";
export { withTableDice, type DieContext, type DicePrompt, type TableDice } from "./dice.js";
export {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyOptions,
  type WebhookHeaders,
} from "./webhooks.js";
export type { SubscribeOptions, Unsubscribe, WebSocketConstructor } from "./stream.js";
export { parseSse, type SseFrame } from "./sse.js";
export type * from "./types.js";
