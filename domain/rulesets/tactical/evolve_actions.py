"""evolve's handlers for the actions of seed 002 taken in a turn ([Actions]: moves, saves,
rest, help, rerolls, free, stamina and reload actions, opposed checks, perception,
concentration; [Regeneration] and drain recovery). Pure and total: each applies what its
event says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.tactical.events import (
    ActionInterrupted,
    CharacterRevealed,
    ConcentrationChecked,
    ConcentrationEnded,
    ConcentrationPaid,
    DieRerolled,
    DrainRecovered,
    FreeActionTaken,
    HelpGiven,
    Moved,
    OpposedCheck,
    Perceived,
    Regenerated,
    Reloaded,
    Rested,
    SaveRolled,
    StandardActionLost,
)
from domain.rulesets.tactical.model import Condition, State
from domain.rulesets.tactical.state_ops import effective_max, gain, glimpse, put, spend

__all__ = ["ACTION_HANDLERS"]


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


def _revealed(s: State, e: CharacterRevealed) -> State:
    t = s.chars[e.character]
    return put(s, glimpse(t, e.glimpse_ends_with_turn))


def _interrupted(s: State, e: ActionInterrupted) -> State:
    if e.action != "charge":
        return s
    return put(s, replace(s.chars[e.character], standard_used=True))


ACTION_HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    Moved: _moved,
    CharacterRevealed: _revealed,
    ActionInterrupted: _interrupted,
    SaveRolled: _save,
    Regenerated: _regenerated,
    DrainRecovered: _drain,
    Rested: _rested,
    HelpGiven: _help,
    DieRerolled: _rerolled,
    StandardActionLost: _lost,
    Perceived: _perceived,
    FreeActionTaken: _free,
    ConcentrationPaid: _conc_paid,
    ConcentrationChecked: _conc_checked,
    ConcentrationEnded: _conc_ended,
    OpposedCheck: _opposed,
    Reloaded: _reloaded,
}
