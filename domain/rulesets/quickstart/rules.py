"""Shared machinery of decide for seed 001: the event run, rule citations, board queries
and the phase flow (priority resolution, turn start, step and round ends, hero retreat).
"""

from __future__ import annotations

from domain.dice import Dice
from domain.folding import FoldingRun
from domain.rulesets.quickstart.events import (
    BattleEnded,
    Event,
    HeroRemoved,
    HeroRetreated,
    HeroSurgeLost,
    PriorityChoiceOffered,
    PriorityDecided,
    RoundEnded,
    SideRoll,
    SquadRevealed,
    StepAdvanced,
)
from domain.rulesets.quickstart.evolve import HANDLERS
from domain.rulesets.quickstart.grid import Pos, flood_to
from domain.rulesets.quickstart.model import Squad, State

__all__ = [
    "R_ACTION",
    "R_COMBAT",
    "R_HEROES",
    "R_PRIORITY",
    "R_REFEREE",
    "R_REPOSITION",
    "R_SIEGE",
    "R_TROOPS",
    "R_WATCHTOWER",
    "Run",
    "advance_step",
    "begin_turn",
    "blocked",
    "check_battle_end",
    "hero_count",
    "resolve_priority",
    "retreat_heroes_of",
    "roll_off",
    "start_round",
]

R_PRIORITY = "001 Combat phases / 1. Priority Phase"
R_ACTION = "001 Combat phases / 2. Action Phase"
R_REPOSITION = "001 Combat phases / 3. Reposition Phase"
R_COMBAT = "001 Resolving Combat"
R_HEROES = "001 Hero Units"
R_TROOPS = "001 The troops"
R_SIEGE = "001 Defenses and siege weapons"
R_WATCHTOWER = "001 The Watchtower"
R_REFEREE = "001 (referee)"


class Run(FoldingRun[State, Event]):
    """The events of one command, folded as they are emitted so later steps see them."""

    __slots__ = ()

    def __init__(self, state: State) -> None:
        # FoldingRun's fields, set here: one call fewer for each run of decide (awaiting
        # runs decide for each command it weighs)
        self.state = state
        self.events = []
        self._handlers = HANDLERS


def blocked(state: State, seen_by: str | None = None) -> set[Pos]:
    """Squares nothing may move into: squads, siege engines and barriers (not circles).
    With `seen_by`, as that side knows them: a squad hidden from it is not there (Hero
    Units: stealth), so that what it is told never depends on a square it cannot see."""
    if seen_by is None:
        out = {(q.x, q.y) for q in state.squads.values()}
    else:
        out = {(q.x, q.y) for q in state.squads.values() if not q.hidden or q.side == seen_by}
    for g in state.engines.values():  # few engines and barriers: no generator for them
        out.add((g.x, g.y))
    for b in state.barriers.values():
        out.add((b.x, b.y))
    return out


def hero_count(state: State, squad: str) -> int:
    return sum(1 for h in state.heroes.values() if h.squad == squad and h.status == "active")


def check_battle_end(run: Run) -> None:
    """The battle ends when at most one side has squads left."""
    st = run.state
    if st.phase == "over":
        return
    squads = st.squads.values()
    alive: list[str] = []
    for s in st.board.sides:
        for q in squads:
            if q.side == s:
                alive.append(s)
                break
    if len(alive) == 1:
        run.emit(BattleEnded(winner=alive[0], reason=f"only {alive[0]} has squads left"))
    elif not alive:
        run.emit(BattleEnded(winner=None, reason="no squads left on any side"))


def _nearest_free_squad(state: State, side: str, start: Pos) -> tuple[str, Pos] | None:
    """Hero Units: the closest squad of `side` with room for a hero, reachable from start."""
    cap = state.board.options.max_heroes_per_squad
    heroes_with: dict[str, int] = {}  # active heroes per squad, counted in one pass
    for h in state.heroes.values():
        if h.squad is not None and h.status == "active":
            heroes_with[h.squad] = heroes_with.get(h.squad, 0) + 1
    at: dict[Pos, Squad] = {
        (q.x, q.y): q
        for q in state.squads.values()
        if q.side == side and heroes_with.get(q.id, 0) < cap
    }
    if not at:
        return None
    if start in at:
        q = at[start]
        return q.id, start
    board = state.board
    found = flood_to(
        start,
        blocked(state, side),  # the hero's side's knowledge: a hidden enemy does not trap it
        board.width,
        board.height,
        board.options.adjacency == "eight",
        at,
    )
    if found is None:
        return None
    best = min(found[1], key=lambda p: at[p].id)
    return at[best].id, best


def retreat_heroes_of(run: Run, squad: Squad) -> None:
    """Hero Units: when its squad is destroyed a hero retreats to the closest squad without
    a hero and loses its minor action this round; with no way there it is trapped."""
    # Each event below changes its own hero only: who retreats is known before the first.
    attached = [
        hid for hid, h in run.state.heroes.items() if h.squad == squad.id and h.status == "active"
    ]
    for hid in sorted(attached):
        h = run.state.heroes[hid]
        dest = _nearest_free_squad(run.state, h.side, (squad.x, squad.y))
        if dest is None:
            run.emit(
                HeroRetreated(
                    hero=hid, side=h.side, squad=None, x=squad.x, y=squad.y, cause="squad_destroyed"
                )
            )
        else:
            run.emit(
                HeroRetreated(
                    hero=hid,
                    side=h.side,
                    squad=dest[0],
                    x=-1,
                    y=-1,
                    cause="squad_destroyed",
                    hidden=run.state.squads[dest[0]].hidden,
                )
            )


def begin_turn(run: Run) -> None:
    """Hero Units: at the start of its side's action phase a trapped hero that can reach the
    closest squad moves there; otherwise it loses a healing surge, and with none left (after
    the loss, or none to lose) it is removed from the fight."""
    side = run.state.active_side
    if side is None or run.state.phase != "action":
        return
    # Each event below changes its own hero only: who is trapped is known before the first.
    trapped = [
        hid for hid, h in run.state.heroes.items() if h.side == side and h.status == "trapped"
    ]
    for hid in sorted(trapped):
        h = run.state.heroes[hid]
        dest = _nearest_free_squad(run.state, side, (h.x, h.y))
        if dest is not None:
            run.emit(
                HeroRetreated(
                    hero=hid,
                    side=side,
                    squad=dest[0],
                    x=-1,
                    y=-1,
                    cause="escaped",
                    hidden=run.state.squads[dest[0]].hidden,
                )
            )
        elif h.surges > 0:
            run.emit(HeroSurgeLost(hero=hid, surges=h.surges - 1))
            if h.surges - 1 == 0:
                run.emit(HeroRemoved(hero=hid))
        else:
            run.emit(HeroRemoved(hero=hid))


def roll_off(run: Run, dice: Dice) -> None:
    """Priority by roll-off: each side rolls one die, highest first, ties in setup order."""
    st = run.state
    sides_ = st.board.options.priority_roll_sides
    rolls = tuple(
        SideRoll(side=s, die=dice.roll(sides_, f"priority roll-off of {s}", subject=s))
        for s in st.board.sides
    )
    index = {s: i for i, s in enumerate(st.board.sides)}
    order = tuple(r.side for r in sorted(rolls, key=lambda r: (-r.die.value, index[r.side])))
    run.emit(PriorityDecided(order=order, method="roll_off", rolls=rolls))
    begin_turn(run)


def resolve_priority(run: Run, dice: Dice) -> None:
    """1. Priority Phase: a side at least half of whose heroes succeeded chooses who has
    priority; when no side or several sides qualify, the sides roll off."""
    st = run.state
    checks = st.checks
    # Per side, in one pass over the heroes: (heroes in the fight, successful checks).
    tally: dict[str, list[int]] = {}
    for h in st.heroes.values():
        if h.status != "removed":
            t = tally.setdefault(h.side, [0, 0])
            t[0] += 1
            if checks.get(h.id, False):
                t[1] += 1
    qualifying: list[str] = []
    for side in st.board.sides:
        counts = tally.get(side)
        if counts is not None and counts[1] * 2 >= counts[0]:
            qualifying.append(side)
    if len(qualifying) == 1:
        run.emit(PriorityChoiceOffered(side=qualifying[0]))
    else:
        roll_off(run, dice)


def start_round(run: Run, dice: Dice) -> None:
    """A new round's priority phase; with no hero able to check, roll off at once."""
    if not any(h.status != "removed" for h in run.state.heroes.values()):
        roll_off(run, dice)


def _end_round(run: Run, dice: Dice) -> None:
    for q in sorted(run.state.squads.values(), key=lambda q: q.id):
        if q.hidden:
            run.emit(SquadRevealed(squad=q.id, side=q.side, x=q.x, y=q.y, reason="round ended"))
    run.emit(RoundEnded(round=run.state.round))
    start_round(run, dice)


def _has_skirmisher(state: State, side: str) -> bool:
    """Whether `side` has a skirmisher left. A loop: any() over a generator costs more."""
    for q in state.squads.values():  # noqa: SIM110
        if q.kind == "skirmisher" and q.side == side:
            return True
    return False


def advance_step(run: Run, dice: Dice) -> None:
    """2. Action Phase: moves, then combats, then skirmishers' second moves, then the next
    side; 3. Reposition Phase: each side in priority order, then the round ends."""
    st = run.state
    side = st.active_side
    assert side is not None
    nxt = st.turn + 1
    if st.phase == "action":
        if st.step == "move":
            run.emit(StepAdvanced(phase="action", turn=st.turn, step="combat", side=side))
            return
        if st.step == "combat" and _has_skirmisher(st, side):
            run.emit(StepAdvanced(phase="action", turn=st.turn, step="skirmish", side=side))
            return
        if nxt < len(st.order):
            run.emit(StepAdvanced(phase="action", turn=nxt, step="move", side=st.order[nxt]))
            begin_turn(run)
            return
        run.emit(StepAdvanced(phase="reposition", turn=0, step="reposition", side=st.order[0]))
        return
    if nxt < len(st.order):
        run.emit(StepAdvanced(phase="reposition", turn=nxt, step="reposition", side=st.order[nxt]))
        return
    _end_round(run, dice)
