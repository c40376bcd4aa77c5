"""evolve for the tactical ruleset (seed 002): apply one event. Pure, total, never rolls.

Every computation happened in decide and its results are in the event; each handler
replaces the one or two characters the event names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.rulesets.tactical.events import (
    AreaCovered,
    AttackDeclared,
    AttackResolved,
    CharacterDamaged,
    CharacterDied,
    CharacterJoined,
    CharacterPlaced,
    CombatEnded,
    ConcentrationChecked,
    ConcentrationEnded,
    ConcentrationPaid,
    ConditionEnded,
    ConditionGained,
    DCSet,
    DeathSaveRolled,
    DieRerolled,
    DrainRecovered,
    Event,
    FreeActionTaken,
    HelpGiven,
    InitiativeRolled,
    Moved,
    OpportunityClosed,
    OpportunityDeclined,
    OpportunityOffered,
    OpposedCheck,
    Perceived,
    Regenerated,
    Reloaded,
    Rested,
    Restored,
    RoundStarted,
    SaveRolled,
    Stabilized,
    StandardActionLost,
    StructureDamaged,
    SurpriseDeclared,
    TurnEnded,
    TurnStarted,
    UnseenAttackResolved,
    VisibilityRuled,
    WallRaised,
    WoundRecorded,
)
from domain.rulesets.tactical.model import Char, Condition, Pool, State, Structure
from domain.rulesets.tactical.records import AttackRecord

__all__ = ["HANDLERS", "effective_max", "evolve"]


def effective_max(c: Char, pool: str) -> int:
    """[Exhausted]: the maximum of STA and WIL less the rating, to a minimum of 1."""
    p: Pool = getattr(c, pool)
    if pool == "HEA":
        return p.max
    ex = c.condition("exhausted")
    return p.max if ex is None else max(1, p.max - ex.rating)


def _put(s: State, c: Char) -> State:
    chars = s.chars.copy()
    chars[c.id] = c
    return replace(s, chars=chars)


def _gain(c: Char, pool: str, amount: int) -> Char:
    """Raise a pool by `amount`, never above its (effective) maximum, never lowering it."""
    p: Pool = getattr(c, pool)
    cur = max(p.cur, min(p.cur + amount, effective_max(c, pool)))
    return replace(c, **{pool: replace(p, cur=cur)})


def _lose(c: Char, pool: str, amount: int) -> Char:
    p: Pool = getattr(c, pool)
    return replace(c, **{pool: replace(p, cur=p.cur - amount)})


def _spend(c: Char, sta: int, wil: int) -> Char:
    if sta:
        c = replace(c, STA=replace(c.STA, cur=c.STA.cur - sta), sta_spent=True)
    if wil:
        c = replace(c, WIL=replace(c.WIL, cur=c.WIL.cur - wil), wil_spent=True)
    return c


def _costs(
    s: State, attacker: str, action: str, sta: int, wil: int, weapon: str | None = None
) -> State:
    c = _spend(s.chars[attacker], sta, wil)
    if weapon is not None:
        it = s.board.items.get(weapon)
        if it is not None and it.reload:  # [Reload]: "reload N" actions before the next use
            left = c.reload_left.copy()
            left[weapon] = it.reload
            c = replace(c, reload_left=left)
        pw = s.board.powers.get(weapon)
        if pw is not None and pw.concentration and weapon in c.powers:
            c = replace(c, concentration=weapon, concentration_rating=pw.concentration)
    w = s.opportunity
    if action == "opportunity" and w is not None and attacker in w.reactors:
        s = replace(
            s, opportunity=replace(w, reactors=tuple(r for r in w.reactors if r != attacker))
        )
    if action != "opportunity" or s.options.oa_counts_to_cap:
        c = replace(c, attacks=c.attacks + 1)
    if action in ("standard", "finisher", "charge"):
        c = replace(c, standard_used=True)
    if action == "opportunity":
        c = replace(c, reaction_used=True)
    return _put(s, c)


def _attack_costs(s: State, a: AttackRecord) -> State:
    return _costs(s, a.attacker, a.action, a.sta_spent, a.wil_spent, a.weapon)


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
    return replace(_put(s, c), active=e.character, turn=e.index)


def _turn_ended(s: State, e: TurnEnded) -> State:
    c = s.chars[e.character]
    c = replace(c, rerolls=0)
    if s.options.regen_window == "since_previous_turn":
        c = replace(c, sta_spent=False, wil_spent=False)
    return replace(_put(s, c), active=None)


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
    c = _spend(c, e.sta_spent, 0)
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


def _declared(s: State, e: AttackDeclared) -> State:
    if not e.attack.area:  # an area's costs went with its AreaCovered
        s = _attack_costs(s, e.attack)
    return replace(s, pending=e.attack, queue=e.queue)


def _resolved(s: State, e: AttackResolved) -> State:
    a = e.attack
    if s.pending is None and e.counts_action and not a.area:
        s = _attack_costs(s, a)
    s = replace(s, pending=None)
    if s.queue and e.attack in s.queue:
        s = replace(s, queue=tuple(q for q in s.queue if q != e.attack))
    for r in e.reactions:
        c = s.chars[r.character]
        c = _spend(c, r.sta, 0)
        if r.kind != "none":
            c = replace(c, reaction_used=True)
        s = _put(s, c)
    if e.damage > 0 and a.target is not None and a.target_kind == "character":
        s = _put(s, _lose(s.chars[a.target], a.pool, e.damage))
    if a.target is not None and a.target_kind == "character" and a.unseen and e.hit:
        t = s.chars[a.target]
        s = _put(s, replace(t, glimpsed_until=t.turns_taken + 1))
    return s


def _offered(s: State, e: OpportunityOffered) -> State:
    return replace(s, opportunity=e.window)


def _declined(s: State, e: OpportunityDeclined) -> State:
    w = s.opportunity
    if w is None:
        return s
    return replace(
        s, opportunity=replace(w, reactors=tuple(r for r in w.reactors if r != e.character))
    )


def _closed(s: State, e: OpportunityClosed) -> State:
    return replace(s, opportunity=None)


def _area(s: State, e: AreaCovered) -> State:
    return _costs(s, e.attacker, e.action, e.sta_spent, e.wil_spent, e.weapon)


def _unseen(s: State, e: UnseenAttackResolved) -> State:
    return s


def _structure(s: State, e: StructureDamaged) -> State:
    st = s.structures[e.structure]
    st = replace(st, hea_damage=e.total_hea_damage, sth=e.sth_after)
    structures = s.structures.copy()
    structures[st.id] = st
    built = s.built
    if e.destroyed:
        built = {k: v for k, v in built.items() if v != st.id}
    return replace(s, structures=structures, built=built)


def _wall(s: State, e: WallRaised) -> State:
    s = _costs(s, e.attacker, e.action, e.sta_spent, e.wil_spent, e.power)
    st = Structure(
        id=e.structure,
        name=e.power,
        squares=e.squares,
        sth=e.sth,
        sth_max=e.sth,
        DEF=0,
        FOC=0,
        blocks_move=True,
        blocks_sight=True,
        cover="cover",
        wall=True,
    )
    structures = s.structures.copy()
    structures[st.id] = st
    built = s.built.copy()
    for sq in e.squares:
        built[sq] = st.id
    return replace(s, structures=structures, built=built)


def _damaged(s: State, e: CharacterDamaged) -> State:
    c = _lose(s.chars[e.character], e.pool, e.amount)
    if e.sta_amount:
        c = _lose(c, "STA", e.sta_amount)
    return _put(s, c)


def _cond_gained(s: State, e: ConditionGained) -> State:
    c = s.chars[e.character]
    kept = tuple(k for k in c.conditions if k.name != e.condition.name)
    c = replace(c, conditions=(*kept, e.condition))
    if e.condition.name == "exhausted":  # A69: the current value drops to the new maximum
        for pool in ("STA", "WIL"):
            p: Pool = getattr(c, pool)
            top = effective_max(c, pool)
            if p.cur > top:
                c = replace(c, **{pool: replace(p, cur=top)})
    if e.condition.name == "exposed" and e.condition.unsaveable and c.drained_at is None:
        c = replace(c, drained_at=c.turns_taken)
    return _put(s, c)


def _cond_ended(s: State, e: ConditionEnded) -> State:
    c = s.chars[e.character]
    c = replace(c, conditions=tuple(k for k in c.conditions if k.name != e.condition))
    if e.condition == "exposed":
        c = replace(c, drained_at=None)
    if e.condition == "unconscious":
        c = replace(c, death_successes=0, death_failures=0)
    return _put(s, c)


def _wound(s: State, e: WoundRecorded) -> State:
    return _put(s, replace(s.chars[e.character], wounds=e.wounds))


def _death_save(s: State, e: DeathSaveRolled) -> State:
    c = replace(s.chars[e.character], death_successes=e.successes, death_failures=e.failures)
    return _put(s, c)


def _stabilized(s: State, e: Stabilized) -> State:
    return _put(s, replace(s.chars[e.character], death_successes=0, death_failures=0))


def _died(s: State, e: CharacterDied) -> State:
    c = replace(s.chars[e.character], dead=True, concentration=None, concentration_rating=0)
    occupied = s.occupied
    if occupied.get(c.pos) == c.id:
        occupied = occupied.copy()
        del occupied[c.pos]
    chars = s.chars.copy()
    chars[c.id] = c
    return replace(s, chars=chars, occupied=occupied)


def _save(s: State, e: SaveRolled) -> State:
    c = s.chars[e.character]
    if e.action == "standard":
        c = replace(c, standard_used=True)
    return _put(s, c)


def _regenerated(s: State, e: Regenerated) -> State:
    c = s.chars[e.character]
    if e.sta_gain:
        c = _gain(c, "STA", e.sta_gain)
    if e.wil_gain:
        c = _gain(c, "WIL", e.wil_gain)
    return _put(s, c)


def _drain(s: State, e: DrainRecovered) -> State:
    c = s.chars[e.character]
    cur = min(c.STA.cur + e.gain, effective_max(c, "STA"))
    if s.options.drain_floor_zero:
        cur = min(max(c.STA.cur, 0) + e.gain, effective_max(c, "STA"))
    c = replace(c, STA=replace(c.STA, cur=max(cur, c.STA.cur)))
    c = replace(c, drained_at=c.turns_taken if e.still_drained else None)
    return _put(s, c)


def _rested(s: State, e: Rested) -> State:
    return _put(s, replace(s.chars[e.character], rested=True, standard_used=True))


def _help(s: State, e: HelpGiven) -> State:
    s = _put(s, replace(s.chars[e.character], standard_used=True))
    ally = s.chars[e.ally]
    return _put(s, replace(ally, rerolls=ally.rerolls + 1))


def _rerolled(s: State, e: DieRerolled) -> State:
    c = s.chars[e.character]
    return _put(s, replace(c, rerolls=max(c.rerolls - 1, 0)))


def _lost(s: State, e: StandardActionLost) -> State:
    c = s.chars[e.character]
    if e.lost == "standard":
        c = replace(c, stunned_lost="standard", standard_used=True)
    else:
        c = replace(c, stunned_lost="move", moves=c.moves + 1)
    return _put(s, c)


def _perceived(s: State, e: Perceived) -> State:
    c = _spend(s.chars[e.character], e.sta_spent, 0)
    c = replace(c, free_used=(*c.free_used, "perceive"))
    if e.success:
        c = replace(c, perceived=(*c.perceived, e.target))
    return _put(s, c)


def _free(s: State, e: FreeActionTaken) -> State:
    c = _spend(s.chars[e.character], e.sta_spent, 0)
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
    return _put(s, c)


def _restored(s: State, e: Restored) -> State:
    c = _gain(s.chars[e.character], e.pool, e.amount)
    return _put(s, c)


def _dc(s: State, e: DCSet) -> State:
    return replace(s, dc=e.dc)


def _visibility(s: State, e: VisibilityRuled) -> State:
    c = replace(
        s.chars[e.character],
        superior_cover=e.superior_cover,
        concealed=e.concealed,
        helpless=e.helpless,
    )
    return _put(s, c)


def _conc_paid(s: State, e: ConcentrationPaid) -> State:
    c = s.chars[e.character]
    c = replace(c, WIL=replace(c.WIL, cur=c.WIL.cur - e.wil))
    if s.options.concentration_blocks_regen:
        c = replace(c, wil_spent=True)
    return _put(s, c)


def _conc_checked(s: State, e: ConcentrationChecked) -> State:
    return s


def _conc_ended(s: State, e: ConcentrationEnded) -> State:
    c = replace(s.chars[e.character], concentration=None, concentration_rating=0)
    return _put(s, c)


def _opposed(s: State, e: OpposedCheck) -> State:
    return _put(s, replace(s.chars[e.character], standard_used=True))


def _reloaded(s: State, e: Reloaded) -> State:
    c = _spend(s.chars[e.character], e.sta_spent, 0)
    left = c.reload_left.copy()
    left[e.item] = e.left
    if e.action == "standard":
        c = replace(c, standard_used=True, reloads_standard=c.reloads_standard + 1)
    else:
        c = replace(c, reloads_stamina=c.reloads_stamina + 1)
    return _put(s, replace(c, reload_left=left))


def _ended(s: State, e: CombatEnded) -> State:
    return replace(s, phase="over", winner=e.winner, end_reason=e.reason, active=None)


HANDLERS: dict[type[Any], Callable[[State, Any], State]] = {
    SurpriseDeclared: _surprise,
    CharacterPlaced: _placed,
    CharacterJoined: _joined,
    InitiativeRolled: _initiative,
    RoundStarted: _round,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
    Moved: _moved,
    AttackDeclared: _declared,
    AttackResolved: _resolved,
    OpportunityOffered: _offered,
    OpportunityDeclined: _declined,
    OpportunityClosed: _closed,
    UnseenAttackResolved: _unseen,
    AreaCovered: _area,
    StructureDamaged: _structure,
    WallRaised: _wall,
    CharacterDamaged: _damaged,
    ConditionGained: _cond_gained,
    ConditionEnded: _cond_ended,
    WoundRecorded: _wound,
    DeathSaveRolled: _death_save,
    Stabilized: _stabilized,
    CharacterDied: _died,
    SaveRolled: _save,
    Regenerated: _regenerated,
    DrainRecovered: _drain,
    Rested: _rested,
    HelpGiven: _help,
    DieRerolled: _rerolled,
    StandardActionLost: _lost,
    Perceived: _perceived,
    FreeActionTaken: _free,
    Restored: _restored,
    DCSet: _dc,
    VisibilityRuled: _visibility,
    ConcentrationPaid: _conc_paid,
    ConcentrationChecked: _conc_checked,
    ConcentrationEnded: _conc_ended,
    OpposedCheck: _opposed,
    Reloaded: _reloaded,
    CombatEnded: _ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event` (seed 002)."""
    return HANDLERS[type(event)](state, event)
