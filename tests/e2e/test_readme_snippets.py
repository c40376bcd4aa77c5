"""The README's code blocks run as a reader would run them (issues 34 and 35: the README
is true), against a live server: the shell session's curl commands for real (bash and
curl, the server's address put for `B=http://127.0.0.1:8000`, the key id an answer gave
put for `pk_…`), each answer's status and fields as the README says them; the player-key
block and docs/API.md's batch block after it; the "From a program" Python and TypeScript
snippets, run with the venv's Python and with node (against clients/ts/dist, built by
`make install`), their `setup` the short session's; the awaiting, next_die and reach
examples of "The API in brief" and of docs/API.md's "Table play"; and the table page's
controls the "Play at the table" steps name. A snippet that stops working fails here, naming it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.test_tactical_http import SETUP as TACTICAL_SETUP
from tests.support.node_tools import CLIENT_DIR, node_tool

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
API_GUIDE = (ROOT / "docs" / "API.md").read_text()  # the batch example lives there
README_BASE = "http://127.0.0.1:8000"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(section: str, lang: str, page: str = README) -> list[str]:
    """The fenced blocks in `lang` under the heading `section` of `page` (the README
    unless told; up to the next heading of its level or above)."""
    out: list[str] = []
    level: int | None = None
    fence: tuple[str, list[str]] | None = None
    for line in page.splitlines():
        if fence is not None:
            if line.startswith("```"):
                if fence[0] == lang:
                    out.append("\n".join(fence[1]) + "\n")
                fence = None
            else:
                fence[1].append(line)
            continue
        m = _HEADING.match(line)
        if m is not None:
            if m.group(2) == section:
                level = len(m.group(1))
            elif level is not None and len(m.group(1)) <= level:
                break
            continue
        f = _FENCE.match(line)
        if f is not None:
            fence = (f.group(1), [])
            if level is None:
                fence = ("", [])  # outside the section: skipped
    assert level is not None, f"no section {section!r}"
    assert out, f"section {section!r} has no {lang} block"
    return out


# Every curl of a script goes through this: its answer to answer.N (and to stdout, as the
# reader sees it), its status to status.N, its headers to headers.N.
_CURL_LOG = """set -eu
n=0
curl() {
  n=$((n+1))
  command curl -o "answer.$n" -D "headers.$n" -w '%{http_code}' "$@" > "status.$n"
  cat "answer.$n"
}
"""


def bash(cwd: Path, base_url: str, script: str) -> list[tuple[int, str, str]]:
    """Run `script` as pasted into bash in `cwd` (the README's server address made the
    live server's); answer each curl's (status, lower-cased headers, body), in order."""
    script = _CURL_LOG + script.replace(f"B={README_BASE}\n", f"B={base_url}\n")
    # python3 reads the JSON answers: this venv's (a reader's: any Python 3)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    r = subprocess.run(
        ["bash", "-c", script], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert r.returncode == 0, (script[-3000:], r.stdout[-3000:], r.stderr[-3000:])
    out = []
    n = 1
    while (cwd / f"status.{n}").exists():
        status = int((cwd / f"status.{n}").read_text())
        out.append(
            (status, (cwd / f"headers.{n}").read_text().lower(), (cwd / f"answer.{n}").read_text())
        )
        n += 1
    return out


def _session() -> str:
    (session,) = blocks("A short session", "sh")
    assert f"B={README_BASE}\n" in session, session  # the address the test replaces
    return session


def _short_session_setup() -> dict[str, Any]:
    """The setup of the short session's BODY (the library snippets' `setup`)."""
    m = re.search(r"BODY='(.*?)'\n", _session(), re.S)
    assert m is not None
    return dict(json.loads(m.group(1))["setup"])


def test_the_short_session_and_player_keys_answer_what_the_readme_says(
    live_server: LiveServer, tmp_path: Path
) -> None:
    (keys,) = blocks("Player keys", "sh")
    # the reader copies the key id the first answer showed into the DELETE
    assert keys.count("pk_…") == 3, keys  # the answer, the actor, the DELETE
    lines = keys.splitlines()
    delete = next(i for i, line in enumerate(lines) if "-X DELETE" in line)
    lines[delete] = lines[delete].replace("pk_…", "$KEY_ID")
    lines.insert(
        delete,
        "KEY_ID=$(python3 -c \"import json; print(json.load(open('answer.$n'))['key_id'])\")",
    )
    answers = bash(tmp_path, live_server.base_url, _session() + "\n".join(lines) + "\n")
    assert [a[0] for a in answers] == [201, 200, 200, 200, 200, 200, 201, 204], answers

    created = json.loads(answers[0][2])
    assert created["battle_id"] and created["keys"]["referee"] and created["receipt"]
    assert set(created["keys"]["sides"]) == {"north", "south"} and created["keys"]["observer"]
    skipped = json.loads(answers[1][2])  # the referee skips the heroes' checks
    assert skipped["events"] and "awaiting" in skipped and skipped["receipt"]
    north = json.loads(answers[2][2])  # the state as north sees it
    assert north["battle_id"] == created["battle_id"] and north["ruleset"] == "quickstart"
    assert isinstance(north["awaiting"], list) and north["state"]
    events = json.loads(answers[3][2])
    assert [e["version"] for e in events["events"]][:2] == [1, 2], events
    assert json.loads(answers[4][2])["ok"] is True
    assert answers[5][1].count("content-type: text/markdown") == 1, answers[5][1]
    assert answers[5][2].startswith("#"), answers[5][2][:200]

    minted = json.loads(answers[6][2])  # -> 201 {"key_id":"pk_…","key":"bp_…",...}
    shown = {"role": "side", "side": "north", "label": "Alice", "units": ["n1"]}
    assert {k: minted[k] for k in shown} == shown, minted
    assert minted["key_id"].startswith("pk_") and minted["key"].startswith("bp_"), minted
    assert answers[7][2] == ""  # 204
    # "a key taken back stops working at once"
    r = httpx.get(
        f"{live_server.base_url}/battles/{created['battle_id']}",
        headers={"authorization": f"Bearer {minted['key']}"},
    )
    assert r.status_code == 401, r.text


def _tactical_ready(live_server: LiveServer) -> Battle:
    """A tactical battle with table dice whose initiative is rolled: aria (north) acts
    first, gnar (south, the game master's) stands at [8, 2] (tests/e2e/test_batches.py)."""
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    body = {"ruleset": "tactical", "setup": TACTICAL_SETUP, "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    r = b.command("referee", {"type": "RollInitiative"}, dice=[10, 9, 4, 3])
    assert r.status_code == 200, r.text
    return b


def _batch_script(b: Battle, block: str, base_url: str) -> str:
    """`block` after the short session's names for battle `b` (B, ID and its keys)."""
    keys = b.created["keys"]
    names = {
        "B": base_url, "ID": b.id, "REFEREE": keys["referee"],
        "NORTH": keys["sides"]["north"], "OBSERVER": keys["observer"],
    }  # fmt: skip
    return "".join(f"{k}={v}\n" for k, v in names.items()) + block


def test_the_batch_plays_the_turn_it_says(live_server: LiveServer, tmp_path: Path) -> None:
    (block,) = blocks("Batches", "sh", API_GUIDE)
    # the battle the guide names: this test's
    assert "the setup of `tests/e2e/test_tactical_http.py`" in " ".join(API_GUIDE.split())
    b = _tactical_ready(live_server)
    before = b.view()["version"]
    ((status, _, body),) = bash(
        tmp_path, live_server.base_url, _batch_script(b, block, live_server.base_url)
    )
    assert status == 201, body  # "201 answers every event and one receipt"
    answer = json.loads(body)
    types = [e["type"] for e in answer["events"]]
    assert types[:2] == ["Moved", "AttackDeclared"], types
    assert answer["receipt"]["version"] == answer["version"] == b.view()["version"] > before
    state = b.view()["state"]
    chars = {c["id"]: c for c in state["characters"]}
    assert (chars["aria"]["x"], chars["aria"]["y"]) == (7, 2)  # ran next to its foe
    assert chars["gnar"]["HEA"]["cur"] < 9  # the table d6 of 5 hit
    assert state["active"] != "aria"  # and it ended its turn


def test_a_refused_attack_in_the_batch_appends_nothing_naming_index_1(
    live_server: LiveServer, tmp_path: Path
) -> None:
    (block,) = blocks("Batches", "sh", API_GUIDE)
    assert block.count('"target":"gnar"') == 1, block
    far = block.replace('"target":"gnar"', '"target":"hisk"')  # three squares off: no reach
    b = _tactical_ready(live_server)
    before = b.events()
    ((status, headers, body),) = bash(
        tmp_path, live_server.base_url, _batch_script(b, far, live_server.base_url)
    )
    assert status == 422 and "application/problem+json" in headers, body
    assert json.loads(body)["index"] == 1, body
    assert b.events() == before  # nothing appended


def run_until(
    argv: list[str], cwd: Path, enough: Any, typed: str = "", timeout: float = 30
) -> list[str]:
    """Start a snippet that follows a live stream (it never ends by itself: the reader
    stops it with Ctrl-C), `typed` at its keyboard; answer the lines it printed once
    `enough(lines)` holds, or all it printed when it exits or the time is up."""
    proc = subprocess.Popen(
        argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(typed)
    proc.stdin.close()
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if enough(lines):
                break
        done.set()

    threading.Thread(target=read, daemon=True).start()
    done.wait(timeout)
    finished = proc.poll()
    proc.kill()
    proc.wait(timeout=10)
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert enough(lines), (finished, lines, err[-3000:])
    return lines


def test_the_python_snippet_creates_commands_and_follows(
    live_server: LiveServer, tmp_path: Path
) -> None:
    (snippet,) = blocks("From a program", "python")
    assert README_BASE in snippet, snippet
    program = tmp_path / "snippet.py"
    program.write_text(
        f"setup = {_short_session_setup()!r}  # the short session's\n"
        + snippet.replace(README_BASE, live_server.base_url)
    )

    # the table rolls a 6 for north and a 2 for south: north wins the roll-off
    def enough(lines: list[str]) -> bool:
        return any("AwaitingChange(" in line for line in lines)

    out = "\n".join(run_until([sys.executable, str(program)], tmp_path, enough, "6\n2\n"))
    # each `next_die` asked at the keyboard, in order
    assert "a d6 for priority roll-off of north: a d6 for priority roll-off of south: " in out
    assert "data=BattleCreated(" in out  # the stream, from the start
    assert "data=QuickstartPriorityDecided(method='roll_off', order=['north', 'south']" in out
    assert "n1 may move" in out  # what the battle awaits next, live


def test_the_typescript_snippet_creates_subscribes_and_commands(
    live_server: LiveServer, tmp_path: Path
) -> None:
    (snippet,) = blocks("From a program", "ts")
    assert README_BASE in snippet, snippet
    node_tool("tsc")  # skips (fails with CI=true) without the node tools
    if not (CLIENT_DIR / "dist" / "index.js").exists():
        pytest.fail("clients/ts/dist is missing: `make install` builds it (npm run build)")
    # the package by its name, as `npm install` of its tarball would place it (the
    # packing itself: tests/e2e/test_ts_library.py)
    scope = tmp_path / "node_modules" / "@battle-service"
    scope.mkdir(parents=True)
    (scope / "client").symlink_to(CLIENT_DIR)
    (tmp_path / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    program = tmp_path / "snippet.mjs"  # the snippet has no type annotation: it is JS
    program.write_text(
        f"const setup = {json.dumps(_short_session_setup())};  // the short session's\n"
        + snippet.replace(README_BASE, live_server.base_url)
    )

    # the server's dice settle the roll-off: n1 or s1 may move first; the first awaiting
    # (a read) may come before the events or after the command
    def enough(lines: list[str]) -> bool:
        return "PriorityDecided" in lines and any("may move (the squares" in ln for ln in lines)

    lines = run_until(["node", str(program)], tmp_path, enough)
    # each event's type, in order, and the awaiting reasons after them (onAwaiting's)
    assert [line for line in lines if re.fullmatch(r"[A-Z]\w+", line)] == [
        "BattleCreated",
        "PriorityDecided",
    ], lines


def _api_prose() -> str:
    """The section "The API in brief" outside its code blocks, its lines joined by spaces."""
    text = README[README.index("## The API in brief") : README.index("### A short session")]
    return " ".join(re.sub(r"```.*?```", "", text, flags=re.S).split())


def _elided(text: str) -> Any:
    """A README example's JSON, its `...` (more of the same) left out."""
    return json.loads(re.sub(r",\s*\.\.\.\s*\]", "]", text).replace("[...]", "[]"))


def test_the_awaiting_next_die_and_reach_examples_are_the_short_sessions(
    live_server: LiveServer,
) -> None:
    """The short session's battle (with table dice for next_die): what north awaits once
    the heroes' checks are skipped, n1's reach, and n1's attack on s1 sent without dice
    are what the README's examples show."""
    (awaiting,) = blocks("The API in brief", "json")
    shown_prompt = _elided("{" + awaiting + "}")["awaiting"][0]
    prose = _api_prose()
    m = re.search(r'`"next_die": (\{.*?\})`', prose)
    assert m is not None, prose
    shown_die = json.loads(m.group(1))
    m = re.search(r'`(\{"unit": "n1".*?\})`', prose)
    assert m is not None, prose
    shown_reach = _elided(m.group(1))

    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    body = {"ruleset": "quickstart", "setup": _short_session_setup(), "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    # north wins the priority roll-off (6 against 2): n1 moves first
    assert b.command("referee", {"type": "SkipPriorityChecks"}, dice=[6, 2]).status_code == 200
    assert b.view("north")["awaiting"][0] == shown_prompt

    reach = http.get(f"/battles/{b.id}/reach/n1", headers=b.auth("north")).json()
    for field in ("unit", "command", "movement"):
        assert reach[field] == shown_reach[field], (field, reach)
    assert shown_reach["squares"][0] in reach["squares"]
    assert reach["excluded"] and all(e["reason"] for e in reach["excluded"]), reach

    move = {"type": "MoveSquad", "squad": "n1", "x": 5, "y": 7}  # next to s1
    assert b.command("north", move).status_code == 200
    assert b.command("north", {"type": "EndStep"}).status_code == 200  # to the combat step
    attack = {"type": "Attack", "squads": ["n1"], "targets": ["s1"]}
    before = b.view()["version"]
    r = b.command("north", attack, dice=[])
    assert r.status_code == 422 and r.json()["type"].endswith("dice-error"), r.text
    assert r.json()["next_die"] == shown_die
    assert b.view()["version"] == before  # nothing appended


def test_the_api_guides_table_play_examples_are_what_the_service_answers(
    live_server: LiveServer, tmp_path: Path
) -> None:
    """docs/API.md's "Table play": the awaiting example is aria's turn in the README's
    tactical battle; `Prefer: return=minimal` and the `next_die` refusal, run with curl on
    the short session's battle with table dice, answer what their comments say."""
    api = (ROOT / "docs" / "API.md").read_text()
    section = "Table play: awaiting, next_die, reach"
    (awaiting,) = blocks(section, "json", api)
    prefer, short = blocks(section, "sh", api)
    tactical = _tactical_ready(live_server)
    assert tactical.view("north")["awaiting"][0] == _elided("{" + awaiting + "}")["awaiting"][0]

    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    body = {"ruleset": "quickstart", "setup": _short_session_setup(), "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    assert b.command("referee", {"type": "SkipPriorityChecks"}, dice=[6, 2]).status_code == 200
    move = {"type": "MoveSquad", "squad": "n1", "x": 5, "y": 7}  # next to s1
    assert b.command("north", move).status_code == 200
    answers = bash(
        tmp_path, live_server.base_url, _batch_script(b, prefer + short, live_server.base_url)
    )
    assert [a[0] for a in answers] == [200, 422], answers

    # the reader's `curl -i` shows the headers before the body (here: in headers.N)
    minimal = answers[0][2].split("\n\n", 1)[-1]  # (read as text: \r\n made \n)
    assert "preference-applied: return=minimal" in answers[0][1], answers[0][1]
    assert {"battle_id", "version", "events", "receipt"} <= json.loads(minimal).keys()
    assert "awaiting" not in json.loads(minimal)

    said = " ".join(ln.lstrip("# ") for ln in short.splitlines() if ln.startswith("#"))
    m = re.search(r'"next_die":(\{.*?\})', said)
    assert m is not None, said
    problem = json.loads(answers[1][2])
    assert problem["type"] == "urn:battle-service:problem:dice-error", problem
    assert problem["next_die"] == json.loads(m.group(1))
    detail = re.search(r"\(next: [^)]*\)", said)
    assert detail is not None and detail.group(0) in problem["detail"], (said, problem)


def test_the_table_page_has_what_play_at_the_table_names(live_server: LiveServer) -> None:
    """The README's "Play at the table with two friends", up to the browser (tests/e2e/
    test_table_page_browser.py plays it): /table is served with every control the steps
    name in bold, and each ruleset's ready setup (the README's rulesets) creates a battle
    with table dice."""
    text = README[README.index("### Play at the table") : README.index("## Configuration")]
    assert "<http://127.0.0.1:8000/table>" in text
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    page = http.get("/table")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    served, todo = [page.text], re.findall(r'src="(/table/assets/[\w.]+\.js)"', page.text)
    seen: set[str] = set()
    while todo:  # the page's scripts and the modules they import
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        r = http.get(path)
        assert r.status_code == 200, path
        served.append(r.text)
        todo += re.findall(r'from "(/table/assets/[\w.]+\.js)"', r.text)
    labels = re.findall(r"\*\*(.+?)\*\*", text)
    assert len(labels) >= 5, labels
    for label in labels:
        assert any(label in s for s in served), label
    assert any("players roll table dice" in s for s in served)

    rulesets = re.findall(r"^\| `(\w+)` \|.*\| implemented", README, re.M)
    assert len(rulesets) == 5, rulesets
    for ruleset in rulesets:
        setup = http.get(f"/table/assets/templates/{ruleset}.json")
        assert setup.status_code == 200, ruleset
        body = {"ruleset": ruleset, "setup": setup.json(), "client_dice": "any"}
        r = http.post("/battles", json=body)
        assert r.status_code == 201, (ruleset, r.text)


def test_a_player_key_is_the_actor_and_may_order_only_its_units(live_server: LiveServer) -> None:
    """What "Player keys" says of Alice's key, minted with the README's body on the short
    session's battle (table dice: north moves first): her order records her as its actor,
    as the README shows it; an order for another unit (aria) is a 403 not-permitted."""
    (keys,) = blocks("Player keys", "sh")
    m = re.search(r"-d '(\{.*?\})'", keys)
    assert m is not None, keys
    said = re.search(r'record (\{"actor":.*?\}\});', keys)
    assert said is not None, keys

    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    body = {"ruleset": "quickstart", "setup": _short_session_setup(), "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    assert b.command("referee", {"type": "SkipPriorityChecks"}, dice=[6, 2]).status_code == 200
    r = http.post(f"/battles/{b.id}/keys", headers=b.auth("referee"), json=json.loads(m.group(1)))
    assert r.status_code == 201, r.text
    alice = {"authorization": f"Bearer {r.json()['key']}"}
    actor = json.loads(said.group(1).replace("pk_…", r.json()["key_id"]))["actor"]

    other = {"type": "UseSkill", "hero": "aria", "skill": "heal"}
    r = http.post(f"/battles/{b.id}/commands", headers=alice, json={"command": other, "dice": [9]})
    assert r.status_code == 403, r.text
    assert r.json()["type"] == "urn:battle-service:problem:not-permitted"
    move = {"type": "MoveSquad", "squad": "n1", "x": 5, "y": 5}
    r = http.post(f"/battles/{b.id}/commands", headers=alice, json={"command": move})
    assert r.status_code == 200, r.text
    assert [e["actor"] for e in r.json()["events"]] == [actor]
