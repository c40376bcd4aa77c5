/**
 * Table dice: the players roll real dice and the service is told each one. A command
 * short of a die is refused with `next_die` (which die, what for, for whom); withTableDice
 * asks the caller's `prompt` for it and sends the command again with one more, until the
 * command has all it needs. An upheld dispute's correction (`ResolveDispute`) is asked for
 * as a batch is: each correcting command's own dice, the refusal naming its `index`.
 */
import type { Battle, BatchItem, BatchOptions, CommandOptions } from "./battle.js";
import { ProblemError } from "./problem.js";
import type { Command, CommandResponse, NextDie, Ruleset, Schemas } from "./types.js";

/** What the prompt is told beside the die: the command (and, in a batch, its index) and
 * the dice it already has. */
export interface DieContext {
  command: unknown;
  index?: number;
  dice: readonly number[];
}

/** Answers the rolled value of `die` (or `die.count` values when it asks for several). */
export type DicePrompt = (die: NextDie, context: DieContext) => Promise<number | number[]> | number | number[];

export interface TableDice<R extends string = Ruleset> {
  command(command: Command<R>, options?: CommandOptions): Promise<CommandResponse<R>>;
  batch(items: BatchItem<R>[], options?: BatchOptions): Promise<CommandResponse<R>>;
}

/** Most dice one command is sent with before giving up (a prompt that never satisfies). */
const MOST_DICE = 1000;

async function rolled(prompt: DicePrompt, die: NextDie, context: DieContext): Promise<number[]> {
  const got = await prompt(die, context);
  const values = Array.isArray(got) ? got : [got];
  for (const v of values) {
    if (!Number.isInteger(v) || v < 1 || v > die.sides) {
      throw new RangeError(`a d${die.sides} shows 1..${die.sides}, not ${String(v)}`);
    }
  }
  return values;
}

/** A dice-error that names no die: the command was given dice and rolls none. */
function rollsNone(e: unknown): boolean {
  return e instanceof ProblemError && e.code === "dice-error" && e.nextDie === undefined;
}

function lacking(e: unknown): NextDie | undefined {
  return e instanceof ProblemError && e.code === "dice-error" ? e.nextDie : undefined;
}

type Correction = Schemas["Correction"];
type Resolution = Schemas["ResolveDispute"];

function isResolution(command: unknown): command is Resolution {
  return (command as { type?: unknown }).type === "ResolveDispute";
}

/** A dispute settled: the resolution itself sent without dice (it rolls none: dice given
 * for it are a RangeError, as the Python library's ValueError, before anything is sent;
 * the service refuses them), and when upheld each correcting command's dice asked as the
 * service names them (`index`: which). A correction given its own `dice` keeps them (and
 * is asked for more if short). */
async function resolve<R extends string>(
  battle: Battle<R>,
  prompt: DicePrompt,
  command: Resolution,
  options: CommandOptions,
): Promise<CommandResponse<R>> {
  if (options.dice?.length) {
    throw new RangeError("a resolution rolls no dice: give each correction its own");
  }
  const given = command.corrections ?? [];
  if (given.length === 0) {
    // a dismissal (or a correction without commands): nothing to roll, no dice list
    return battle.command(command as Command<R>, { ...options, dice: undefined, idempotencyKey: undefined });
  }
  const corrections: Correction[] = given.map((c) => ({ ...c, dice: [...(c.dice ?? [])] }));
  for (;;) {
    try {
      const sent = { ...command, corrections } as Command<R>;
      return await battle.command(sent, { ...options, dice: undefined, idempotencyKey: undefined });
    } catch (e) {
      const die = lacking(e);
      const index = e instanceof ProblemError ? e.index : undefined;
      const item = index === undefined ? undefined : corrections[index];
      const dice = item?.dice;
      if (item && dice?.length === 0 && given[index as number]?.dice == null && rollsNone(e)) {
        delete item.dice; // a correcting command that rolls nothing: sent without dice
        continue;
      }
      if (!die || !item || !dice || dice.length >= MOST_DICE) throw e;
      dice.push(...(await rolled(prompt, die, { command: item.command, index: index as number, dice })));
    }
  }
}

/**
 * `battle`'s commands and batches, with the dice asked of `prompt` as the service names
 * them. Each try is a new request (a new Idempotency-Key: its body differs).
 */
export function withTableDice<R extends string = Ruleset>(
  battle: Battle<R>,
  prompt: DicePrompt,
): TableDice<R> {
  return {
    async command(command, options = {}) {
      if (isResolution(command)) return resolve(battle, prompt, command, options);
      // Sent with the dice given (none at first): an empty list asks for table dice.
      let dice: number[] | undefined = [...(options.dice ?? [])];
      for (;;) {
        try {
          return await battle.command(command, { ...options, dice, idempotencyKey: undefined });
        } catch (e) {
          const die = lacking(e);
          if (dice !== undefined && dice.length === 0 && options.dice === undefined && rollsNone(e)) {
            dice = undefined; // a command that rolls nothing (a ruling): sent without dice
            continue;
          }
          if (!die || !dice || dice.length >= MOST_DICE) throw e;
          dice.push(...(await rolled(prompt, die, { command, dice })));
        }
      }
    },
    async batch(items, options = {}) {
      // Copies with their own dice lists (typed loosely: the commands' union is too much
      // for tsc to spread).
      type Item = { command: Command<R>; dice: number[] | undefined; clientSeed?: string | undefined };
      const all: Item[] = [];
      for (const item of items) {
        all.push({ command: item.command, dice: [...(item.dice ?? [])], clientSeed: item.clientSeed });
      }
      for (;;) {
        try {
          return await battle.batch(all, { ...options, idempotencyKey: undefined });
        } catch (e) {
          const die = lacking(e);
          const index = e instanceof ProblemError ? e.index : undefined;
          const item = index === undefined ? undefined : all[index];
          const given = index === undefined ? undefined : items[index]?.dice;
          if (item?.dice?.length === 0 && given === undefined && rollsNone(e)) {
            item.dice = undefined; // a command that rolls nothing: sent without dice
            continue;
          }
          if (!die || !item?.dice || item.dice.length >= MOST_DICE) throw e;
          const context = { command: item.command, index: index as number, dice: item.dice };
          item.dice.push(...(await rolled(prompt, die, context)));
        }
      }
    },
  };
}
