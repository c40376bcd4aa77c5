// The battle API as the viewer uses it: every read with the key in the Authorization
// header (never in a URL, so it stays out of access logs), problems turned into errors.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem && problem.title ? problem.title : `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export class Api {
  constructor(battleId, key) {
    this.battleId = battleId;
    this.key = key;
    this.base = `/battles/${encodeURIComponent(battleId)}`;
  }

  headers(extra) {
    return {Authorization: `Bearer ${this.key}`, ...(extra || {})};
  }

  async get(path, params) {
    const query = params ? "?" + new URLSearchParams(params).toString() : "";
    const r = await fetch(this.base + path + query, {headers: this.headers(), cache: "no-store"});
    const body = await r.json().catch(() => null);
    if (!r.ok) throw new ApiError(r.status, body);
    return body;
  }

  battle() { return this.get(""); }

  /** The battle's setup, from its first event (every key reads it); null if sealed. */
  async setup() {
    const page = await this.get("/events", {after: 0, limit: 1});
    const first = page.events[0];
    return first && !first.sealed ? first.data.setup : null;
  }
  stateAt(version) { return this.get("/state", {version}); }
  narrative(from, to) { return this.get("/narrative", {from, to, limit: 20}); }
  verify() { return this.get("/verify"); }
  disputes() { return this.get("/disputes"); }

  /** The battle's export (JSON Lines, as this key may see it), as text. */
  async exportText() {
    const r = await fetch(this.base + "/export", {headers: this.headers(), cache: "no-store"});
    if (!r.ok) throw new ApiError(r.status, await r.json().catch(() => null));
    return r.text();
  }

  /** Every timeline point from version `from` on (all pages). */
  async timeline(from) {
    let page = await this.get("/timeline", {from});
    const out = {...page, points: [...page.points]};
    while (page.next_from !== null) {
      page = await this.get("/timeline", {from: page.next_from});
      out.points.push(...page.points);
      out.version = page.version;
    }
    return out;
  }

  /**
   * Follow the live stream (Server-Sent Events) from after version `after`, calling
   * onVersion(version) for every event (sealed ones too: only the version is used).
   * Read with fetch, not EventSource, so that the key goes in a header. Resolves when
   * the stream ends; rejects on an HTTP error. `signal` aborts it.
   */
  async follow(after, onVersion, signal) {
    const r = await fetch(`${this.base}/events/stream?after=${after}`, {
      headers: this.headers({Accept: "text/event-stream"}),
      cache: "no-store",
      signal,
    });
    if (!r.ok) throw new ApiError(r.status, await r.json().catch(() => null));
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = frame.split("\n").find((l) => l.startsWith("id:"));
        if (id) onVersion(Number(id.slice(3).trim()));
      }
    }
  }
}
