/**
 * ProblemError: what the service refused, as its problem+json said it (RFC 9457), with
 * every field it carried (`next_die` for table dice short of a die, `index` for the
 * refused command of a batch, `current_version` for a stale expected version...).
 */
import type { NextDie, Problem } from "./types.js";

const PREFIX = "urn:battle-service:problem:";

export class ProblemError extends Error {
  /** The whole problem+json body. */
  readonly problem: Problem & Record<string, unknown>;
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;

  constructor(problem: Problem & Record<string, unknown>) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
    this.name = "ProblemError";
    this.problem = problem;
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
  }

  /** The problem's code: `dice-error`, `version-conflict`... (the end of its `type`). */
  get code(): string {
    return this.type.startsWith(PREFIX) ? this.type.slice(PREFIX.length) : this.type;
  }

  /** The die a table-dice command lacks, when that is why it was refused. */
  get nextDie(): NextDie | undefined {
    return this.problem.next_die ?? undefined;
  }

  /** The 0-based index of the refused command of a batch. */
  get index(): number | undefined {
    const i = this.problem["index"];
    return typeof i === "number" ? i : undefined;
  }

  /** Where the battle is, when the expected version was stale (409). */
  get currentVersion(): number | undefined {
    return this.problem.current_version ?? undefined;
  }
}

/** A problem made from an answer that was not problem+json (a proxy's page, say). */
export function problemOf(status: number, statusText: string, text: string): ProblemError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body && typeof body === "object" && "status" in body && "detail" in body) {
    return new ProblemError(body as Problem & Record<string, unknown>);
  }
  return new ProblemError({
    type: "about:blank",
    title: statusText || `HTTP ${status}`,
    status,
    detail: text.slice(0, 500) || `HTTP ${status} ${statusText}`,
  });
}
