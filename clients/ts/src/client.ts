/**
 * BattleClient: the service at one address, with a key. Creates battles (a Battle for
 * each, with its keys) and opens battles by id.
 */
import { Battle, type BattleOptions } from "./battle.js";
import { newIdempotencyKey, request, type Fetch, type Transport } from "./http.js";
import type {
  BattleCreatedResponse,
  BattleKeys,
  CreateBattleRequest,
  Ruleset,
  Schemas,
} from "./types.js";

export interface ClientOptions {
  /** The service's address, e.g. "https://battles.example" (a prefix path is kept). */
  baseUrl: string;
  /** The key sent by default: an integration's, or a battle's. */
  key?: string;
  /** The fetch to use (default: globalThis.fetch). */
  fetch?: Fetch;
  /** Attempts of a request that may be sent again (default 4). */
  attempts?: number;
}

/** A new battle: its id, its keys, and a Battle through the referee's key. */
export interface CreatedBattle<R extends string = Ruleset> {
  battle: Battle<R>;
  keys: BattleKeys;
  answer: BattleCreatedResponse;
}

type CreateRequest<R extends string> = Omit<CreateBattleRequest, "ruleset"> & { ruleset: R };

export class BattleClient {
  readonly transport: Transport;
  readonly key: string | undefined;

  constructor(options: ClientOptions) {
    const f = options.fetch ?? globalThis.fetch;
    this.transport = {
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      // unbound, a browser's fetch throws "Illegal invocation"
      fetch: (input, init) => f.call(globalThis, input, init),
      attempts: options.attempts ?? 4,
    };
    this.key = options.key;
  }

  /** Create a battle (with this client's key, if any: an integration's links it). */
  async createBattle<R extends string>(
    body: CreateRequest<R>,
    options: BattleOptions & { idempotencyKey?: string } = {},
  ): Promise<CreatedBattle<R>> {
    const answer = await request<BattleCreatedResponse>(this.transport, "POST", "/battles", {
      key: this.key,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
    const battle = new Battle<R>(this.transport, answer.battle_id, answer.keys.referee, options);
    battle.saw(answer.version);
    return { battle, keys: answer.keys, answer };
  }

  /** A battle by id, through `key` (default: this client's). */
  battle<R extends string = Ruleset>(id: string, key?: string, options?: BattleOptions): Battle<R> {
    return new Battle<R>(this.transport, id, key ?? this.key, options);
  }

  /** Register an integration: its key creates battles linked to it and receives webhooks. */
  createIntegration(name: string): Promise<Schemas["IntegrationCreatedResponse"]> {
    return request(this.transport, "POST", "/integrations", { body: { name } });
  }

  /** Register a webhook endpoint (with an integration's key); its `secret` is shown once. */
  createWebhook(
    body: Schemas["CreateWebhookRequest"],
  ): Promise<Schemas["WebhookCreatedResponse"]> {
    return request(this.transport, "POST", "/webhooks", { key: this.key, body });
  }
}
