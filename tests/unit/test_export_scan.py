"""The fast paths of `battle-service verify` give what the plain audit gives.

`rolls_in_data` reads rolls by pattern only when the pattern accounts for every `"roll"`
in the text; `verify_export_file` cuts a file into chunks scanned in other processes and
links them afterwards. Each is checked against the straightforward reading: a generic
decode and walk, and one pass over the whole file."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import Roll, commitment, derive_value
from events.chain import canonical, command_break, encode_event, format_break, seal
from events.dice_audit import _walk, rolls_in_data, server_rolls_in_data
from events.envelope import GENESIS_HASH, EventActor, StoredEvent
from events.exports import file as export_file
from events.exports.file import verify_export_file
from events.exports.format import (
    EXPORT_FORMAT,
    ExportHeader,
    ExportReader,
    InvalidExport,
    encode_line,
    verify_export,
)
from events.exports.scan import scan_lines
from service.battles.sealing import event_out, sealed_out

SEED = bytes(range(32))
B = "battle-scan"

texts = st.lists(st.sampled_from(["a", '"', "\\", "roll", "{", "é", "\n", " "]), max_size=6).map(
    "".join
)


@st.composite
def rolls(draw: Any) -> Any:
    server = draw(st.booleans())
    return Roll(
        sides=draw(st.integers(1, 20)),
        values=tuple(draw(st.lists(st.integers(1, 20), max_size=3))),
        purpose=draw(texts),
        source="server" if server else "client",
        epoch=1 if server else None,
        version=draw(st.integers(1, 9)) if server else None,
        index=draw(st.integers(0, 9)) if server else None,
        client_seed=draw(texts),
    )


@st.composite
def event_data(draw: Any) -> bytes:
    """An event's data holding rolls the way events hold them, or spelled otherwise."""
    leaf = st.one_of(rolls(), texts, st.integers(), st.just("roll"))
    tree = st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b"]), inner)
        ),
        max_leaves=6,
    )
    body = draw(st.dictionaries(st.sampled_from(["die", "dice", "x", "roll"]), tree, max_size=3))
    how = draw(st.sampled_from(["msgspec", "sorted", "escaped", "spaced"]))
    if how == "msgspec":
        return msgspec.json.encode(body)
    if how == "sorted":
        return canonical(body)
    text = msgspec.json.encode(body)
    if how == "escaped":
        return text.replace(b'"roll"', b'"\\u0072oll"')
    return text.replace(b'"kind":"roll"', b'"kind": "roll"')


@settings(max_examples=400, deadline=None)
@given(event_data())
def test_rolls_found_by_pattern_are_the_rolls_a_walk_finds(data: bytes) -> None:
    walked = list(_walk(msgspec.json.decode(data)))
    assert rolls_in_data(data) == walked
    server = [r for r in walked if r.get("source") == "server"]
    table = sum(
        len(r["values"])
        for r in walked
        if r.get("source") != "server" and isinstance(r.get("values"), list)
    )
    assert server_rolls_in_data(data) == (table, server)


def test_a_roll_with_a_second_tag_is_read_whole() -> None:
    """`"kind":"roll"` twice in one object: the last wins in a decode, so it is no roll;
    the pattern does not match it and the count falls back to the walk."""
    data = b'{"d":{"kind":"roll","sides":6,"values":[1],"kind":"x"}}'
    assert rolls_in_data(data) == []
    assert server_rolls_in_data(data) == (0, [])


def test_rolls_in_lists_of_lists_are_found_in_document_order() -> None:
    """A volley of volleys: rolls two lists deep, and beside lists, are all found, by the
    pattern and by the walk (the tag spelled otherwise leaves the pattern incomplete)."""
    a, b, c = (
        Roll(sides=6, values=(v,), purpose=f"die {v}", source="server", epoch=1, version=2,
             index=v)
        for v in (1, 2, 3)
    )  # fmt: skip
    body = {"volleys": [[a], [7, [b, "x"], c]]}
    expected = [msgspec.json.decode(msgspec.json.encode(r)) for r in (a, b, c)]
    assert list(_walk(msgspec.json.decode(msgspec.json.encode(body)))) == expected
    for data in (
        msgspec.json.encode(body),
        msgspec.json.encode(body).replace(b'"roll"', b'"\\u0072oll"'),
    ):
        assert rolls_in_data(data) == expected
        assert server_rolls_in_data(data) == (0, expected)


def _export(
    path: Path,
    n: int,
    *,
    tamper: int | None = None,
    garble: int | None = None,
    rebase: int | None = None,
    escaped: int | None = None,
) -> None:
    """An export of `n` events: a creation, then commands rolling server and table dice,
    then the seed revealed. `tamper`: that event's die changed after hashing (its hash no
    longer holds); `garble`: that line is not JSON; `rebase`: the events from that version
    on chained after a foreign hash (each holds, the link to the one before does not);
    `escaped`: that event's die is wrong and its tag spelled `"\\u0072oll"`, hashed so."""
    created = {"dice_epoch": 1, "dice_commitment": commitment(SEED)}
    items: list[tuple[str, bytes, str]] = [("BattleCreated", canonical(created), "all")]
    for v in range(2, n):
        die = Roll(
            sides=6, values=(derive_value(SEED, B, v, 0, "", 6),), purpose=f"roll {v}",
            source="server", epoch=1, version=v, index=0,
        )  # fmt: skip
        table = Roll(sides=6, values=(1, 2), purpose="table", source="client")
        data = encode_event(die) if v % 2 else b"{}"
        items.append(
            ("Rolled", b'{"die":' + data + b',"table":' + encode_event(table) + b"}", "all")
        )
    if escaped is not None:
        type_, data, audience = items[escaped - 1]
        data = data.replace(b'"values":[', b'"values":[9,', 1).replace(b'"roll"', b'"\\u0072oll"')
        data = data.replace(b"roll ", b"die ")  # no `roll` left in its text
        items[escaped - 1] = (type_, data, audience)
    revealed = {"epoch": 1, "seed": SEED.hex(), "reason": "battle-over"}
    items.append(("DiceSeedRevealed", canonical(revealed), "all"))
    cut = len(items) if rebase is None else rebase - 1
    pending = seal(
        battle_id=B, prev_version=0, prev_hash=GENESIS_HASH, items=items[:cut],
        recorded_at="2026-01-01T00:00:00.000Z", actor=EventActor(role="referee"),
        command_id=None,
    )  # fmt: skip
    pending += seal(
        battle_id=B, prev_version=cut, prev_hash="f" * 64, items=items[cut:],
        recorded_at="2026-01-01T00:00:00.000Z", actor=EventActor(role="referee"),
        command_id=None,
    )  # fmt: skip
    lines = []
    for p in pending:
        line = encode_line(
            event_out(StoredEvent(position=p.version, **msgspec.structs.asdict(p)), "quickstart")
        )
        if p.version == tamper:
            line = line.replace(b'"values":[', b'"values":[7,', 1)
        if p.version == garble:
            line = b"{not json\n"
        lines.append(line)
    header = ExportHeader(
        format=EXPORT_FORMAT, battle_id=B, ruleset="quickstart", version=pending[-1].version,
        head_hash=pending[-1].hash, reader=ExportReader(role="referee"), exported_at="now",
    )  # fmt: skip
    path.write_bytes(encode_line(header) + b"\n" + b"".join(lines))


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_file, "_CHUNK", 4096)  # many chunks of a small file


def _both(path: Path) -> tuple[Any, Any, Any]:
    with path.open("rb") as f:
        one = verify_export(f)
    return (
        one,
        verify_export_file(path, workers=1),
        verify_export_file(path, workers=2),
    )


@pytest.mark.usefixtures("small_chunks")
def test_chunks_scanned_apart_report_what_one_pass_reports(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    _export(path, 120)
    one, alone, parallel = _both(path)
    assert one == alone == parallel
    assert (one.chain_ok, one.dice_ok) == (True, True)
    assert (one.events_checked, one.dice_checked, one.client_dice) == (120, 59, 2 * 118)
    assert not one.ok and one.receipts[0].detail == "no receipt"  # this file has none


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("version", [2, 61, 119])
def test_a_die_changed_in_any_chunk_is_named(tmp_path: Path, version: int) -> None:
    path = tmp_path / "e.jsonl"
    _export(path, 120, tamper=version + (version + 1) % 2)  # an event with a server die
    reports = _both(path)
    assert reports[0] == reports[1] == reports[2]
    assert reports[0].chain_ok is False
    assert reports[0].first_failure.startswith(f"version {version + (version + 1) % 2}:")


@pytest.mark.usefixtures("small_chunks")
def test_a_die_spelled_with_escapes_is_still_checked(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    _export(path, 120, escaped=77)
    assert b"\\u0072oll" in path.read_bytes() and b"roll 77" not in path.read_bytes()
    reports = _both(path)
    assert reports[0] == reports[1] == reports[2]
    assert reports[0].chain_ok and not reports[0].dice_ok
    assert reports[0].first_failure.startswith("version 77: ")


@pytest.mark.usefixtures("small_chunks")
def test_a_gap_at_a_chunk_boundary_is_named(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    _export(path, 120)
    lines = path.read_bytes().splitlines(keepends=True)
    offsets = list(itertools.accumulate(len(x) for x in lines))
    cut = next(i for i, o in enumerate(offsets) if o > 3 * 4096)  # the line a cut falls in
    path.write_bytes(b"".join(lines[:cut] + lines[cut + 1 :]))
    reports = _both(path)
    assert reports[0] == reports[1] == reports[2]
    gap = f"version {cut}: version {cut} follows {cut - 2}: the log has a gap"
    assert reports[0].first_failure == gap


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("chunk", [1, 2, 3])
def test_a_link_broken_at_a_chunk_boundary_is_named(tmp_path: Path, chunk: int) -> None:
    """The first event of a chunk does not follow the last of the one before: its own
    hash holds, so only the link across the cut can tell."""
    path = tmp_path / "e.jsonl"
    _export(path, 120)
    lines = path.read_bytes().splitlines(keepends=True)
    starts = list(itertools.accumulate((len(x) for x in lines), initial=0))
    cut = len(lines[0]) + chunk * 4096  # where verify_export_file cuts (one line after)
    first = next(i for i, o in enumerate(starts) if o > cut)  # a chunk's first line
    version = first - 1  # the header and a blank line come first
    _export(path, 120, rebase=version)
    reports = _both(path)
    assert reports[0] == reports[1] == reports[2]
    assert reports[0].first_failure == (
        f"version {version}: prev_hash of event {version} does not match the hash of event "
        f"{version - 1}"
    )


@pytest.mark.usefixtures("small_chunks")
def test_an_unreadable_line_is_named_by_its_line_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    _export(path, 120, garble=100)
    for run in (
        lambda: verify_export(path.open("rb")),
        lambda: verify_export_file(path, workers=1),
        lambda: verify_export_file(path, workers=2),
    ):
        with pytest.raises(InvalidExport) as caught:
            run()
        assert caught.value.line == 102  # the header, a blank line, then events 1..


def _export2(path: Path, n: int, *, switch: int | None = None, stray: int | None = None) -> None:
    """`_export`'s events in chain format 2, each its own command (its dice counted from
    it). `switch`: from that version on, format 1; `stray`: that event names the command
    of two versions before, not its own."""
    _export(path, n)
    lines = path.read_bytes().splitlines(keepends=True)
    prev, out = GENESIS_HASH, [lines[0], lines[1]]
    for raw in lines[2:]:
        e = msgspec.json.decode(raw)
        v = e["version"]
        command = None if switch is not None and v >= switch else (v - 2 if v == stray else v)
        data = bytes(msgspec.json.decode(raw, type=_Raw).data)
        (p,) = seal(
            battle_id=B, prev_version=v - 1, prev_hash=prev, items=[(e["type"], data, "all")],
            recorded_at=e["recorded_at"], actor=EventActor(role="referee"), command_id=None,
            command_version=command,
        )  # fmt: skip
        prev = p.hash
        ev = StoredEvent(position=v, **msgspec.structs.asdict(p))
        out.append(encode_line(event_out(ev, "quickstart")))
    header = msgspec.json.decode(lines[0])
    header["head_hash"] = prev
    out[0] = encode_line(header)
    path.write_bytes(b"".join(out))


class _Raw(msgspec.Struct):
    data: msgspec.Raw


def _chunk_start(path: Path, chunk: int) -> int:
    """The version of the first event of chunk `chunk` (as `verify_export_file` cuts)."""
    lines = path.read_bytes().splitlines(keepends=True)
    starts = list(itertools.accumulate((len(x) for x in lines), initial=0))
    cut = len(lines[0]) + chunk * 4096
    return next(i for i, o in enumerate(starts) if o > cut) - 1


@pytest.mark.usefixtures("small_chunks")
def test_a_format_2_export_scanned_in_chunks_verifies(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    _export2(path, 120)
    one, alone, parallel = _both(path)
    assert one == alone == parallel
    assert (one.chain_ok, one.dice_ok) == (True, True)  # no receipt: only that fails
    assert one.first_failure == "receipt (trailer) at version 120: no receipt"
    assert one.dice_checked > 0


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("chunk", [1, 2])
def test_a_change_of_format_or_command_at_a_chunk_boundary_is_named(
    tmp_path: Path, chunk: int
) -> None:
    path = tmp_path / "e.jsonl"
    _export2(path, 120)
    version = _chunk_start(path, chunk)
    _export2(path, 120, switch=version)
    reports = _both(path)
    assert reports[0] == reports[1] == reports[2]
    assert reports[0].first_failure == f"version {version}: {format_break(version, 1, 2)}"
    _export2(path, 120, stray=version)
    reports = _both(path)
    assert reports[0] == reports[1] == reports[2]
    assert reports[0].first_failure == (
        f"version {version}: {command_break(version, version - 2, version - 1)}"
    )


def _observers_export(
    path: Path, *, commands: dict[int, int] | None = None, audiences: dict[int, str] | None = None
) -> None:
    """An observer's export in chain format 2: ten events, those for side red sealed (with
    their body hash), one command running on past a sealed event (2-4) and two sealed
    events in a row (5, 6). `commands`: an event resealed naming another command (a
    forger's); `audiences`: a stub's audience changed after it was hashed."""
    layout = [("BattleCreated", "all", 1), ("Open", "all", 2), ("Hidden", "side:red", 2),
              ("Open", "all", 2), ("Hidden", "side:red", 5), ("Hidden", "side:red", 5),
              ("Open", "all", 7), ("Open", "all", 7), ("Open", "all", 9),
              ("Open", "all", 9)]  # fmt: skip
    created = canonical({"dice_epoch": 1, "dice_commitment": commitment(SEED)})
    prev, lines = GENESIS_HASH, []
    for v, (type_, audience, command) in enumerate(layout, start=1):
        data = created if v == 1 else canonical({"n": v})
        (p,) = seal(
            battle_id=B, prev_version=v - 1, prev_hash=prev, items=[(type_, data, audience)],
            recorded_at="2026-01-01T00:00:00.000Z", actor=EventActor(role="referee"),
            command_id=None, salts=[None if audience == "all" else "ab" * 16],
            command_version=(commands or {}).get(v, command),
        )  # fmt: skip
        prev = p.hash
        ev = StoredEvent(position=v, **msgspec.structs.asdict(p))
        if audience == "all":
            lines.append(encode_line(event_out(ev, "quickstart")))
            continue
        stub = msgspec.structs.replace(sealed_out(ev), audience=(audiences or {}).get(v, audience))
        lines.append(encode_line(stub))
    header = ExportHeader(
        format=EXPORT_FORMAT, battle_id=B, ruleset="quickstart", version=len(layout),
        head_hash=prev, reader=ExportReader(role="observer"), exported_at="now",
    )  # fmt: skip
    path.write_bytes(encode_line(header) + b"\n" + b"".join(lines))


def _verified(path: Path) -> Any:
    with path.open("rb") as f:
        return verify_export(f)


def test_an_observers_format_2_export_with_stubs_verifies(tmp_path: Path) -> None:
    """Each stub is rehashed from its audience and body, and a command's events may have
    a sealed one between them: the reader's copy holds, as the referee's would."""
    path = tmp_path / "observer.jsonl"
    _observers_export(path)
    report = _verified(path)
    assert (report.chain_ok, report.dice_ok, report.events_sealed) == (True, True, 3)
    assert report.first_failure == "receipt (trailer) at version 10: no receipt"


def test_a_stubs_audience_changed_is_named_at_the_first_one(tmp_path: Path) -> None:
    """A forger relabels sealed events (here for a side the observer cannot see either):
    the first relabelled stub is named, and the scan stops there."""
    path = tmp_path / "observer.jsonl"
    _observers_export(path, audiences={3: "side:blue", 6: "side:blue"})
    report = _verified(path)
    assert not report.chain_ok
    assert report.first_failure == (
        "version 3: sealed event 3 does not hash to its recorded hash: its audience or body "
        "was changed"
    )


def test_an_event_resealed_into_another_command_is_named_at_the_first_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "observer.jsonl"
    _observers_export(path, commands={8: 6, 10: 8})
    report = _verified(path)
    assert not report.chain_ok
    assert report.first_failure == f"version 8: {command_break(8, 6, 7)}"


def test_a_chunk_that_begins_with_a_stub_claims_no_command(tmp_path: Path) -> None:
    """A stub's hash covers no command_version: one written into it (by a forger) is not
    taken as the command the chunk's first event belongs to when the chunks are linked."""
    path = tmp_path / "observer.jsonl"
    _observers_export(path)
    lines = [line for line in path.read_bytes().splitlines()[1:] if line]
    stub = lines[4].replace(b'"sealed":true', b'"sealed":true,"command_version":3')
    assert stub != lines[4]
    scan = scan_lines([stub, *lines[5:]])
    assert (scan.first_version, scan.first_command, scan.chain_break) == (5, None, None)
