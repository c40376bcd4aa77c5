/**
 * Battle: one battle through one key. Reads (view, events, reach), commands and batches
 * with their idempotency keys and expected versions, player keys, and live events.
 */
import { newIdempotencyKey, request, type Transport } from "./http.js";
import { subscribe, type SubscribeOptions, type Unsubscribe } from "./stream.js";
import type {
  BattleKeyOut,
  BattleView,
  Command,
  CommandResponse,
  CreateBattleKeyRequest,
  CreatedBattleKey,
  DisputeOut,
  Prompt,
  Reach,
  Ruleset,
  StreamEvent,
} from "./types.js";

export interface CommandOptions {
  /** The table dice this command uses, in order (battles created with client dice). */
  dice?: number[] | undefined;
  /** The battle version the command is meant for: refused with a 409 if it moved on.
   * `null` sends none even when the battle tracks its version. */
  expectedVersion?: number | null | undefined;
  /** Sent as `Idempotency-Key`; a new one per call by default, reused on its retries. */
  idempotencyKey?: string | undefined;
  /** Mixed into the service's dice (`client_seed`). */
  clientSeed?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface BatchItem<R extends string = Ruleset> {
  command: Command<R>;
  dice?: number[] | undefined;
  clientSeed?: string | undefined;
}

export interface BatchOptions {
  expectedVersion?: number | null | undefined;
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface BattleOptions {
  /** Send `expected_version` with every command and batch: the version of the last
   * answer this object saw (a view, a command, an event received). Default false. */
  trackVersion?: boolean;
}

export interface EventPage<R extends string = Ruleset> {
  battle_id: string;
  events: StreamEvent<R>[];
  next_after: number | null;
  version: number;
}

/** Player keys of a battle (minted by the referee's or the integration's key). */
export class BattleKeysApi {
  constructor(private readonly battle: { transport: Transport; path: string; key?: string | undefined }) {}

  /** Mint a key for one player; its secret (`key`) is in this answer only. */
  mint(body: CreateBattleKeyRequest, signal?: AbortSignal): Promise<CreatedBattleKey> {
    const b = this.battle;
    return request(b.transport, "POST", `${b.path}/keys`, { key: b.key, body, signal });
  }

  /** The battle's player keys, without their secrets. */
  async list(signal?: AbortSignal): Promise<BattleKeyOut[]> {
    const b = this.battle;
    const page = await request<{ keys: BattleKeyOut[] }>(b.transport, "GET", `${b.path}/keys`, {
      key: b.key,
      signal,
    });
    return page.keys;
  }

  /** Revoke a key: from then on it is refused (401) everywhere. */
  async revoke(keyId: string, signal?: AbortSignal): Promise<void> {
    const b = this.battle;
    const path = `${b.path}/keys/${encodeURIComponent(keyId)}`;
    await request<void>(b.transport, "DELETE", path, { key: b.key, signal });
  }
}

export class Battle<R extends string = Ruleset> {
  readonly path: string;
  readonly keys: BattleKeysApi;
  /** The last version this object saw (a view, a command's answer, a received event). */
  version: number | undefined;
  /** What the battle awaited in this key's view at `version`, when an answer said. */
  awaiting: Prompt[] | undefined;
  private readonly trackVersion: boolean;

  constructor(
    readonly transport: Transport,
    readonly id: string,
    readonly key: string | undefined,
    options: BattleOptions = {},
  ) {
    this.path = `/battles/${encodeURIComponent(id)}`;
    this.keys = new BattleKeysApi(this);
    this.trackVersion = options.trackVersion ?? false;
  }

  /** Remember a version seen (never going back). */
  saw(version: number, awaiting?: Prompt[]): void {
    if (this.version === undefined || version >= this.version) {
      this.version = version;
      if (awaiting !== undefined) this.awaiting = awaiting;
    }
  }

  /** The battle as this key sees it, with what it awaits. */
  async view(signal?: AbortSignal): Promise<BattleView<R>> {
    const view = await request<BattleView<R>>(this.transport, "GET", this.path, {
      key: this.key,
      signal,
    });
    const v = view as { version: number; awaiting?: Prompt[] };
    this.saw(v.version, v.awaiting);
    return view;
  }

  /** One page of the log after `after` (what this key may see; the rest sealed). */
  events(after = 0, limit = 500, signal?: AbortSignal): Promise<EventPage<R>> {
    return request(this.transport, "GET", `${this.path}/events`, {
      key: this.key,
      query: { after, limit },
      signal,
    });
  }

  /** The disputes this key may read, in the order raised (`GET /battles/{id}/disputes`):
   * each with its status, the versions it disputes, the claim and, once settled, the
   * ruling and the correcting versions. One about events hidden from this key's reader is
   * listed only for its raiser and the referee, until those events are unsealed. */
  async disputes(signal?: AbortSignal): Promise<DisputeOut[]> {
    const list = await request<{ disputes: DisputeOut[] }>(
      this.transport,
      "GET",
      `${this.path}/disputes`,
      { key: this.key, signal },
    );
    return list.disputes;
  }

  /** The squares `unit` can reach with its next move, in this key's view (grid rulesets;
   * a 404 `no-reach` problem in the others). */
  reach(unit: string, signal?: AbortSignal): Promise<Reach> {
    return request(this.transport, "GET", `${this.path}/reach/${encodeURIComponent(unit)}`, {
      key: this.key,
      signal,
    });
  }

  private expected(asked: number | null | undefined): number | undefined {
    if (asked === null) return undefined;
    if (asked !== undefined) return asked;
    return this.trackVersion ? this.version : undefined;
  }

  /** Give one command. Throws a ProblemError when refused (`nextDie` says which die a
   * table-dice command lacks: see withTableDice). */
  async command(command: Command<R>, options: CommandOptions = {}): Promise<CommandResponse<R>> {
    const body: Record<string, unknown> = { command };
    if (options.dice !== undefined) body["dice"] = options.dice;
    if (options.clientSeed !== undefined) body["client_seed"] = options.clientSeed;
    const expected = this.expected(options.expectedVersion);
    if (expected !== undefined) body["expected_version"] = expected;
    const answer = await request<CommandResponse<R>>(
      this.transport,
      "POST",
      `${this.path}/commands`,
      {
        key: this.key,
        body,
        idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
        signal: options.signal,
      },
    );
    this.saw(answer.version, answer.awaiting);
    return answer;
  }

  /** Give several commands at once: all are applied or none (a refusal's problem names
   * the `index` of the refused command). */
  async batch(items: BatchItem<R>[], options: BatchOptions = {}): Promise<CommandResponse<R>> {
    // Read as plain items: mapping the commands' union type is too much for tsc.
    const plain = items as ReadonlyArray<{ command: unknown; dice?: number[]; clientSeed?: string }>;
    const commands = plain.map((item) => {
      const one: Record<string, unknown> = { command: item.command };
      if (item.dice !== undefined) one["dice"] = item.dice;
      if (item.clientSeed !== undefined) one["client_seed"] = item.clientSeed;
      return one;
    });
    const body: Record<string, unknown> = { commands };
    const expected = this.expected(options.expectedVersion);
    if (expected !== undefined) body["expected_version"] = expected;
    const answer = await request<CommandResponse<R>>(
      this.transport,
      "POST",
      `${this.path}/commands/batch`,
      {
        key: this.key,
        body,
        idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
        signal: options.signal,
      },
    );
    this.saw(answer.version, answer.awaiting);
    return answer;
  }

  /** Follow the battle live: each event once, in order, resuming after a drop. */
  subscribe(
    onEvent: (event: StreamEvent<R>, id: number) => void,
    options: SubscribeOptions = {},
  ): Unsubscribe {
    return subscribe(this, onEvent as (e: StreamEvent<string>, id: number) => void, options);
  }
}
