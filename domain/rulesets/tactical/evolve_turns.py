"""evolve's handlers for the turn flow of seed 002 (surprise, positions, initiative, rounds,
turns, moves, regeneration, free and stamina actions, rulings, the end of combat).
Pure and total: each applies what its event says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.tactical.events import (
    CharacterJoined,
    CharacterPlaced,
    CombatEnded,
    ConcentrationChecked,
    ConcentrationEnded,
    ConcentrationPaid,
    DCSet,
    DieRerolled,
    DrainRecovered,
    FreeActionTaken,
    HelpGiven,
    InitiativeRolled,
    Moved,
    OpposedCheck,
    Perceived,
    Regenerated,
    Reloaded,
    Rested,
    RoundStarted,
    SaveRolled,
    StandardActionLost,
    SurpriseDeclared,
    TurnEnded,
    TurnStarted,
    VisibilityRuled,
)
from domain.rulesets.tactical.model import Char, Condition, State
from domain.rulesets.tactical.state_ops import effective_max, gain, put, spend

__all__ = ["TURN_HANDLERS"]


def _surprise(s: State, e: SurpriseDeclared) -> State:
    chosen = set(e.surprised)
    chars = {k: replace(c, surprised=k in chosen) for k, c in s.chars.items()}
    return replace(s, chars=chars)


def _placed(s: State, e: CharacterPlaced) -> State:
    c = s.chars[e.character]
    occupied = s.occupied.copy()
    if occupied.get(c.pos) == c.id:
        del occupied[c.pos]
    occupied[(e.x, e.y)] = c.id
    chars = s.chars.copy()
    chars[c.id] = replace(c, x=e.x, y=e.y)
    return replace(s, chars=chars, occupied=occupied)


def _joined(s: State, e: CharacterJoined) -> State:
    from domain.rulesets.tactical.initial import character

    c = character(e.character, e.controller)
    chars = s.chars.copy()
    chars[c.id] = c
    occupied = s.occupied.copy()
    occupied[c.pos] = c.id
    order = (*s.order[: e.slot], c.id, *s.order[e.slot :])
    turn = s.turn + 1 if e.slot <= s.turn else s.turn
    return replace(s, chars=chars, occupied=occupied, order=order, turn=turn)


def _initiative(s: State, e: InitiativeRolled) -> State:
    chars = s.chars.copy()
    for entry in e.entries:
        chars[entry.character] = replace(chars[entry.character], initiative=entry.total)
    return replace(s, chars=chars, order=e.order, phase="combat")


def _reset_round(c: Char) -> Char:
    return replace(
        c,
        moves=0,
        attacks=0,
        reaction_used=False,
        draws=0,
        reloads_standard=0,
        reloads_stamina=0,
        free_used=(),
    )


def _round(s: State, e: RoundStarted) -> State:
    if s.options.round_window == "global":
        chars = {k: _reset_round(c) for k, c in s.chars.items()}
    else:
        chars = s.chars
    if e.round == 2:  # [Sequence §4]: the surprise lasts the first round only (A43)
        chars = {k: replace(c, surprised=False) if c.surprised else c for k, c in chars.items()}
    return replace(s, chars=chars, round=e.round, turn=-1, active=None)


def _turn_started(s: State, e: TurnStarted) -> State:
    c = s.chars[e.character]
    if s.options.round_window == "per_character":
        c = _reset_round(c)
    c = replace(
        c,
        turns_taken=c.turns_taken + 1,
        standard_used=False,
        moves=0,
        rested=False,
        sprinting=False,
        perceived=(),
        stunned_lost=None,
    )
    if s.options.regen_window == "this_turn":
        c = replace(c, sta_spent=False, wil_spent=False)
    return replace(put(s, c), active=e.character, turn=e.index)


def _turn_ended(s: State, e: TurnEnded) -> State:
    c = s.chars[e.character]
    c = replace(c, rerolls=0)
    if s.options.regen_window == "since_previous_turn":
        c = replace(c, sta_spent=False, wil_spent=False)
    return replace(put(s, c), active=None)


def _moved(s: State, e: Moved) -> State:
    c = s.chars[e.character]
    occupied = s.occupied
    if e.path:
        x, y = e.path[-1]
        occupied = occupied.copy()
        if occupied.get(c.pos) == c.id:
            del occupied[c.pos]
        occupied[(x, y)] = c.id
        c = replace(c, x=x, y=y)
    c = spend(c, e.sta_spent, 0)
    if e.move_action:
        c = replace(c, moves=c.moves + 1)
    if e.mode == "sprint":
        c = replace(c, sprinting=True)
    if e.stood_up:
        c = replace(c, conditions=tuple(k for k in c.conditions if k.name != "prone"))
    if e.dropped_prone and not c.has("prone"):
        c = replace(c, conditions=(*c.conditions, Condition(name="prone")))
    chars = s.chars.copy()
    chars[c.id] = c
    return replace(s, chars=chars, occupied=occupied)


def _save(s: State, e: SaveRolled) -> State:
    c = s.chars[e.character]
    if e.action == "standard":
        c = replace(c, standard_used=True)
    return put(s, c)


def _regenerated(s: State, e: Regenerated) -> State:
    c = s.chars[e.character]
    if e.sta_gain:
        c = gain(c, "STA", e.sta_gain)
    if e.wil_gain:
        c = gain(c, "WIL", e.wil_gain)
    return put(s, c)


def _drain(s: State, e: DrainRecovered) -> State:
    c = s.chars[e.character]
    cur = min(c.STA.cur + e.gain, effective_max(c, "STA"))
    if s.options.drain_floor_zero:
        cur = min(max(c.STA.cur, 0) + e.gain, effective_max(c, "STA"))
    c = replace(c, STA=replace(c.STA, cur=max(cur, c.STA.cur)))
    c = replace(c, drained_at=c.turns_taken if e.still_drained else None)
    return put(s, c)


def _rested(s: State, e: Rested) -> State:
    return put(s, replace(s.chars[e.character], rested=True, standard_used=True))


def _help(s: State, e: HelpGiven) -> State:
    s = put(s, replace(s.chars[e.character], standard_used=True))
    ally = s.chars[e.ally]
    return put(s, replace(ally, rerolls=ally.rerolls + 1))


def _rerolled(s: State, e: DieRerolled) -> State:
    c = s.chars[e.character]
    return put(s, replace(c, rerolls=max(c.rerolls - 1, 0)))


def _lost(s: State, e: StandardActionLost) -> State:
    c = s.chars[e.character]
    if e.lost == "standard":
        c = replace(c, stunned_lost="standard", standard_used=True)
    else:
        c = replace(c, stunned_lost="move", moves=c.moves + 1)
    return put(s, c)


def _perceived(s: State, e: Perceived) -> State:
    c = spend(s.chars[e.character], e.sta_spent, 0)
    c = replace(c, free_used=(*c.free_used, "perceive"))
    if e.success:
        c = replace(c, perceived=(*c.perceived, e.target))
    return put(s, c)


def _free(s: State, e: FreeActionTaken) -> State:
    c = spend(s.chars[e.character], e.sta_spent, 0)
    c = replace(c, free_used=(*c.free_used, e.action))
    if e.action in ("draw", "stow"):
        c = replace(c, draws=c.draws + 1)
    if e.action == "draw" and e.item is not None:
        stowed = tuple(i for i in c.stowed if i != e.item)
        if e.hand == "off":
            c = replace(c, off_hand=e.item, stowed=stowed)
        else:
            c = replace(c, main_hand=e.item, stowed=stowed)
    elif e.action in ("stow", "drop") and e.item is not None:
        for item in (e.item, e.pair):
            if item is None:
                continue
            keep = (*c.stowed, item) if e.action == "stow" else c.stowed
            if c.main_hand == item:
                c = replace(c, main_hand=None, stowed=keep)
            elif c.off_hand == item:
                c = replace(c, off_hand=None, stowed=keep)
    if e.action == "draw" and e.pair is not None:
        c = replace(c, off_hand=e.pair, stowed=tuple(i for i in c.stowed if i != e.pair))
    return put(s, c)


def _dc(s: State, e: DCSet) -> State:
    return replace(s, dc=e.dc)


def _visibility(s: State, e: VisibilityRuled) -> State:
    c = replace(
        s.chars[e.character],
        superior_cover=e.superior_cover,
        concealed=e.concealed,
        helpless=e.helpless,
    )
    return put(s, c)


def _conc_paid(s: State, e: ConcentrationPaid) -> State:
    c = s.chars[e.character]
    c = replace(c, WIL=replace(c.WIL, cur=c.WIL.cur - e.wil))
    if s.options.concentration_blocks_regen:
        c = replace(c, wil_spent=True)
    return put(s, c)


def _conc_checked(s: State, e: ConcentrationChecked) -> State:
    return s


def _conc_ended(s: State, e: ConcentrationEnded) -> State:
    c = replace(s.chars[e.character], concentration=None, concentration_rating=0)
    return put(s, c)


def _opposed(s: State, e: OpposedCheck) -> State:
    return put(s, replace(s.chars[e.character], standard_used=True))


def _reloaded(s: State, e: Reloaded) -> State:
    c = spend(s.chars[e.character], e.sta_spent, 0)
    left = c.reload_left.copy()
    left[e.item] = e.left
    if e.action == "standard":
        c = replace(c, standard_used=True, reloads_standard=c.reloads_standard + 1)
    else:
        c = replace(c, reloads_stamina=c.reloads_stamina + 1)
    return put(s, replace(c, reload_left=left))


def _ended(s: State, e: CombatEnded) -> State:
    return replace(s, phase="over", winner=e.winner, end_reason=e.reason, active=None)


TURN_HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    SurpriseDeclared: _surprise,
    CharacterPlaced: _placed,
    CharacterJoined: _joined,
    InitiativeRolled: _initiative,
    RoundStarted: _round,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
    Moved: _moved,
    SaveRolled: _save,
    Regenerated: _regenerated,
    DrainRecovered: _drain,
    Rested: _rested,
    HelpGiven: _help,
    DieRerolled: _rerolled,
    StandardActionLost: _lost,
    Perceived: _perceived,
    FreeActionTaken: _free,
    DCSet: _dc,
    VisibilityRuled: _visibility,
    ConcentrationPaid: _conc_paid,
    ConcentrationChecked: _conc_checked,
    ConcentrationEnded: _conc_ended,
    OpposedCheck: _opposed,
    Reloaded: _reloaded,
    CombatEnded: _ended,
}
