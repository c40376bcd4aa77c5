"""`python -m bench.worst_command`: the slowest single command at each ruleset's size limits.

Builds the largest battle each ruleset's limits allow (`domain/rulesets/*/limits.py`), then
times the commands whose work grows with those limits (decide with the server's HMAC dice,
then the fold of its events), each on the same state, best of a few runs, and prints every
figure and the worst beside the target. The target is the point of the limits: no single
command may hold a worker (and `/health`) for long. Not a test: it reports, it does not fail.
"""

from __future__ import annotations

import time
import tracemalloc
from typing import Any

import msgspec

from bench.worst_phased import phased_figures
from bench.worst_tactical import tactical_figures
from domain.dice import ServerDice
from domain.errors import DomainError
from domain.rulesets import get_ruleset
from domain.rulesets.quickstart import limits as q
from domain.rulesets.skirmish import geometry
from domain.rulesets.skirmish import limits as k
from domain.rulesets.skirmish.geometry import footprint
from tests.support.skirmish_kit import CROSSBOW, crossbows, fighters

__all__ = [
    "TARGET_MS",
    "largest_quickstart_setup",
    "main",
    "quickstart_figures",
    "skirmish_figures",
]

TARGET_MS = 50.0  # the worst single command, decide + fold
RUNS = 5
KINDS = ("soldier", "caster", "medic", "paladin", "skirmisher")


def _dice(version: int = 2) -> ServerDice:
    return ServerDice(seed=b"\x07" * 32, epoch=1, battle_id="bench", version=version)


def _timed(ruleset: Any, state: Any, command: dict[str, Any]) -> tuple[float, Any, int]:
    """Best-of-RUNS milliseconds of decide + fold, the state after, the events' count."""
    decoded = ruleset.command_decoder.decode(msgspec.json.encode(command))
    best, after, count = float("inf"), state, 0
    for _ in range(RUNS):
        for cached in (geometry.footprint, geometry._frame_at, geometry._threatened_at,
                       geometry._box_at):  # fmt: skip
            cached.cache_clear()  # each run starts cold, as a command on a new state does
        start = time.perf_counter()
        try:
            events = ruleset.decide(state, decoded, _dice())
        except DomainError as e:  # a refusal is work too: timed, and said
            best = min(best, (time.perf_counter() - start) * 1000)
            print(f"  ({command['type']} refused: {str(e)[:150]})")
            continue
        folded = state
        for e in events:
            folded = ruleset.evolve(folded, e)
        best = min(best, (time.perf_counter() - start) * 1000)
        after, count = folded, len(events)
    return best, after, count


def largest_quickstart_setup() -> dict[str, Any]:
    """400 squads at level 30 in four facing rows across a 100 x 100 grid (every north squad
    in contact with south squads), 100 heroes with 32 skills, 100 engines, 400 barriers in
    rows across the grid with one gap at an edge (a long way round), 100 circles."""
    size, level = q.MAX_GRID, q.MAX_LEVEL
    per_side = q.MAX_SQUADS // 2
    squads = []
    for i in range(per_side):
        row, x = divmod(i, size)
        squads.append(
            {"id": f"n{i}", "side": "north", "kind": KINDS[i % 5], "level": level,
             "x": x, "y": 48 - row}
        )  # fmt: skip
        squads.append(
            {"id": f"s{i}", "side": "south", "kind": KINDS[(i + 1) % 5], "level": level,
             "x": x, "y": 49 + row, "undead": i % 2 == 0, "large": True}
        )  # fmt: skip
    skills = {f"skill{j}": 5 for j in range(q.MAX_SKILLS - 4)}
    skills |= {"stealth": 5, "heal": 5, "history": 5, "perception": 5}
    heroes = [
        {"id": f"h{i}", "side": "north" if i % 2 == 0 else "south",
         "squad": f"{'n' if i % 2 == 0 else 's'}{i // 2}", "skills": skills,
         "surges": q.MAX_SURGES}
        for i in range(q.MAX_HEROES)
    ]  # fmt: skip
    engines = [
        {"id": f"e{i}", "side": "north" if i < 50 else "south", "level": level,
         "x": i % size, "y": 10 if i < 50 else 89}
        for i in range(q.MAX_ENGINES)
    ]  # fmt: skip
    barriers = [
        {"id": f"b{i}", "side": "north" if i < 200 else "south", "level": level,
         "x": i % (size - 1) + (i >= 200), "y": (20 if i < 200 else 77) + i % 200 // (size - 1)}
        for i in range(q.MAX_BARRIERS)
    ]  # fmt: skip
    circles = [
        {"id": f"c{i}", "side": "north" if i % 2 else "south", "x": i % size, "y": 49 + i // size}
        for i in range(q.MAX_CIRCLES)
    ]
    return {
        "sides": ["north", "south"], "width": size, "height": size, "squads": squads,
        "heroes": heroes, "engines": engines, "barriers": barriers, "circles": circles,
        "watchtower": {"x": 0, "y": 0},
    }  # fmt: skip


def quickstart_figures() -> list[tuple[str, float, int]]:
    rs = get_ruleset("quickstart")
    assert rs is not None
    setup = largest_quickstart_setup()
    body = msgspec.json.encode({"ruleset": "quickstart", "setup": setup})
    options = {"speeds": dict.fromkeys(KINDS, q.MAX_GRID), "caster_range": q.MAX_GRID}
    state = rs.initial_state(
        msgspec.convert(setup, rs.setup_type), msgspec.convert(options, rs.options_type)
    )
    tracemalloc.start()
    rs.initial_state(
        msgspec.convert(setup, rs.setup_type), msgspec.convert(options, rs.options_type)
    )
    held = tracemalloc.get_traced_memory()[1]  # the peak: the state and what built it
    tracemalloc.stop()
    out: list[tuple[str, float, int]] = [
        ("creation body (bytes, not ms)", len(body), 0),
        ("initial state, peak memory (bytes, not ms)", held, 0),
    ]
    ms, state, n = _timed(rs, state, {"type": "SkipPriorityChecks"})
    out.append(("SkipPriorityChecks (100 heroes)", ms, n))
    while state.phase == "priority":
        cmd = {"type": "RollForPriority"} if state.step != "choose" else None
        if cmd is None:
            cmd = {"type": "ChoosePriority", "first": "north"}
        ms, state, n = _timed(rs, state, cmd)
        out.append((cmd["type"], ms, n))
    # The side acting first moves, then fights; give the move to whichever side acts.
    side = state.active_side
    mine = [sq for sq in state.squads.values() if sq.side == side]
    foes = [sq for sq in state.squads.values() if sq.side != side]
    # From the back row, round the barriers' rows through their gap at the edge.
    far = next(sq for sq in mine if sq.y in (47, 50) and sq.x == 5)
    target = (q.MAX_GRID - 1, 19 if side == "north" else 80)
    ms, _, n = _timed(rs, state, {"type": "MoveSquad", "squad": far.id, "x": target[0],
                                  "y": target[1]})  # fmt: skip
    out.append((f"MoveSquad across the {q.MAX_GRID}x{q.MAX_GRID} grid", ms, n))
    ms, state, n = _timed(rs, state, {"type": "EndStep"})
    out.append(("EndStep (moves -> combats)", ms, n))
    front = [sq.id for sq in mine if sq.y in (48, 49)]
    foe_front = [sq.id for sq in foes if sq.y in (48, 49)]
    one = next(sq for sq in mine if sq.y in (48, 49))
    ms, _, n = _timed(rs, state, {"type": "Attack", "squads": [one.id],
                                  "targets": [foe_front[one.x]]})  # fmt: skip
    out.append((f"Attack: one level-{q.MAX_LEVEL} squad", ms, n))
    ms, state, n = _timed(rs, state, {"type": "Attack", "squads": front, "targets": foe_front})
    out.append((f"Attack: {len(front)} squads against {len(foe_front)}", ms, n))
    worst_choice = 0.0
    choices = 0
    while state.combat is not None and state.combat.queue and choices < 400:
        hit = state.combat.queue[0]
        victims = [s for s in state.combat.attackers + state.combat.defenders
                   if s in state.squads and state.squads[s].side == hit.victim_side]  # fmt: skip
        ms, state, n = _timed(rs, state, {"type": "ChooseCasualty", "squad": victims[0]})
        worst_choice, choices = max(worst_choice, ms), choices + 1
    out.append((f"ChooseCasualty (worst of {choices}, heroes retreating)", worst_choice, 0))
    if state.combat is not None and state.combat.awaiting:
        ms, state, n = _timed(rs, state, {"type": "PressAttack"})
        out.append(("PressAttack (the whole front again)", ms, n))
    return out


def _skirmish_army(i: int, side: str) -> dict[str, Any]:
    dice = [{"count": 10, "sides": 10, "bonus": 5}] * k.MAX_DAMAGE_TERMS
    options = [{"name": f"o{m}", "damage": dice} for m in range(4)]
    profiles = [{**CROSSBOW, "name": f"p{j}", "damage_options": options} for j in range(k.MAX_LIST)]
    make = fighters if i % 2 else crossbows
    return make(
        f"{side}{i}", army_size=k.MAX_ARMY_SIZE, soldier_hp=k.MAX_SOLDIER_HP // 10,
        attacks=profiles, speed=30, squares=k.MAX_ARMY_SQUARES,
    )  # fmt: skip


def skirmish_figures() -> list[tuple[str, float, int]]:
    rs = get_ruleset("skirmish")
    assert rs is not None
    per_side = k.MAX_ARMIES // 2
    setup = {
        "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
        "width": k.MAX_GRID, "height": 120,
    }  # fmt: skip
    state = rs.initial_state(msgspec.convert(setup, rs.setup_type), rs.options_type())
    out: list[tuple[str, float, int]] = []
    biggest = 0

    def do(command: dict[str, Any], label: str | None = None) -> None:
        nonlocal state, biggest
        body = len(msgspec.json.encode({"command": command}))
        biggest = max(biggest, body)
        ms, state, n = _timed(rs, state, command)
        if label:
            out.append((label, ms, n))

    for s, p in (("north", 5), ("south", 2)):
        do({"type": "AppointLeader", "side": s, "leader": {"name": s, "profession_soldier": p}})
    do({"type": "AdvanceSetup"})
    for i in range(per_side):
        for s in ("north", "south"):
            do({"type": "RaiseArmy", "side": s, "army": _skirmish_army(i, s)},
               "RaiseArmy (32 profiles)" if i == 0 and s == "north" else None)  # fmt: skip
    for _ in range(3):
        do({"type": "AdvanceSetup"})  # boons, surprise, initiative
    for s in ("north", "south"):
        do({"type": "RollInitiative", "side": s})
    do({"type": "AdvanceSetup"})
    for s in state.initiative_order:
        do({"type": "SetZones", "side": s,
            "zones": {"melee_edge": 600 if s == "north" else 700}})  # fmt: skip
    do({"type": "AdvanceSetup"})
    for s in state.initiative_order:
        x = 0
        for i in range(per_side):  # side by side, wholly in the camp zones
            a = state.armies[f"{s}{i}"]
            facing = "south" if s == "north" else "north"
            lo, hi = (0, 50) if s == "north" else (80, 120)  # the camp zones' rows
            y = next(
                y for y in range(lo, hi)
                if all(lo <= r < hi for _, r in footprint(x, y, a.width, a.depth, facing))
            )  # fmt: skip
            do({"type": "PlaceArmy", "army": a.spec.id, "x": x, "y": y, "facing": facing})
            x += max(a.width, a.depth) + 2
    do({"type": "AdvanceSetup"})
    for s in state.initiative_order:
        do({"type": "DeclareStrategy", "side": s, "strategy": "standard"})
    do({"type": "AdvanceSetup"})
    do({"type": "AdvanceSetup"})
    do({"type": "AdvanceSetup"})
    assert state.phase == "movement", state.phase
    moved = state
    north0 = state.armies["north0"]
    do({"type": "MoveArmy", "army": "north0", "x": north0.x, "y": north0.y + 3},
       "MoveArmy (every army on the map)")  # fmt: skip
    state = moved
    do({"type": "ResolvePhase"}, "ResolvePhase (movement -> ranged)")
    for i in range(per_side):
        for s, foe in (("north", "south"), ("south", "north")):
            do({"type": "DeclareAction", "army": f"{s}{i}", "profile": f"p{1 if i % 2 == 0 else 0}",
                "target": f"{foe}{i}", "damage_option": "o3"})  # fmt: skip
    do(
        {"type": "ResolvePhase"},
        f"ResolvePhase: {k.MAX_ARMIES} volleys, {k.MAX_ARMY_SQUARES} squares each",
    )
    out.insert(0, ("largest command body (bytes, not ms)", biggest, 0))
    return out


def _print(title: str, figures: list[tuple[str, float, int]]) -> float:
    print(title)
    worst = 0.0
    for label, value, events in figures:
        if "bytes" in label:
            print(f"  {label:<58} {value:>10,.0f}")
            continue
        worst = max(worst, value)
        print(f"  {label:<58} {value:8.2f} ms  ({events} events)")
    return worst


def _reference_ms() -> float:
    """A fixed pure-Python loop, best of 5: how fast the machine is right now (the figures
    above scale with it; on a loaded machine both grow together)."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i & 7
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def main() -> None:
    worst = _print("quickstart at its limits (decide + fold, server dice)", quickstart_figures())
    worst = max(worst, _print("skirmish at its limits", skirmish_figures()))
    worst = max(worst, _print("tactical at its limits", tactical_figures()))
    worst = max(worst, _print("phased at its limits", phased_figures()))
    verdict = "ok" if worst < TARGET_MS else "OVER"
    print(f"worst single command: {worst:.2f} ms (target < {TARGET_MS:.0f} ms): {verdict}")
    print(f"  (machine reference: a 1,000,000-step Python loop took {_reference_ms():.1f} ms)")


if __name__ == "__main__":
    main()
