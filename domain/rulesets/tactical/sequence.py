"""[Sequence] of seed 002: surprise, initiative, rounds and turns, what happens at the start
of a turn (bleeding, burning, death saves) and at its end (drain recovery, regeneration).
"""

from __future__ import annotations

from domain.actors import side_audience
from domain.dice import Dice, Roll, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.events import (
    CharacterDamaged,
    CharacterPlaced,
    CharacterRevealed,
    ConcentrationPaid,
    ConditionEnded,
    DrainRecovered,
    InitiativeEntry,
    InitiativeRolled,
    Regenerated,
    RoundStarted,
    StandardActionLost,
    SurpriseDeclared,
    TurnEnded,
    TurnStarted,
)
from domain.rulesets.tactical.geometry import adjacent
from domain.rulesets.tactical.hidden import unseen_squares
from domain.rulesets.tactical.hits import concentration_check, end_concentration
from domain.rulesets.tactical.model import Char
from domain.rulesets.tactical.modifiers import square_hidden
from domain.rulesets.tactical.pools import after_loss, check_end, death_save
from domain.rulesets.tactical.rules import (
    R_CONDITIONS,
    R_SEQUENCE,
    R_STAMINA,
    R_TOTAL_CONCEALMENT,
    Run,
    char,
)

__all__ = ["advance", "declare_surprise", "end_turn", "place", "roll_initiative"]


def declare_surprise(run: Run, surprised: tuple[str, ...], reason: str) -> None:
    """[Sequence §1]: the GM determines who is surprised (before initiative)."""
    if run.state.phase != "setup":
        raise RuleViolation("surprise is determined before initiative", rule=R_SEQUENCE)
    for cid in surprised:
        char(run.state, cid)
    run.emit(SurpriseDeclared(surprised=tuple(dict.fromkeys(surprised)), reason=reason))


def place(run: Run, cid: str, to: tuple[int, int]) -> None:
    """[Sequence §2]: starting positions, before initiative, on a free square."""
    st = run.state
    if st.phase != "setup":
        raise RuleViolation("positions are set before initiative", rule=R_SEQUENCE)
    c = char(st, cid)
    sq = (to[0], to[1])
    w, h = st.board.width, st.board.height
    if not (0 <= sq[0] < w and 0 <= sq[1] < h):
        raise RuleViolation(f"{list(sq)} is off the map", rule=R_SEQUENCE)
    if sq in st.board.blocks_move or sq in st.built:
        raise RuleViolation(f"{list(sq)} is not free", rule=R_SEQUENCE)
    there = st.occupied.get(sq, c.id)
    if there != c.id:
        if sq not in unseen_squares(st, c):
            raise RuleViolation(f"{list(sq)} is not free", rule=R_SEQUENCE)
        # An unseen creature stands there: a refusal would tell the placer's side where
        # it is, so it is revealed instead, as a move that meets one (hidden.py); the
        # placer chooses again (RULINGS, hidden creatures).
        run.emit(
            CharacterRevealed(
                character=there,
                square=sq,
                by=c.id,
                reason=f"{c.id} is placed on {list(sq)}, where {there} stands unseen",
                rule=R_TOTAL_CONCEALMENT,
                glimpse_ends_with_turn=True,  # §4 (0.3.0)
            )
        )
        return
    # An invisible character's square is its side's (and the referee's) to know.
    hidden = c.side if square_hidden(c) else None
    run.emit(CharacterPlaced(character=c.id, x=sq[0], y=sq[1], hidden_side=hidden))


def roll_initiative(run: Run, dice: Dice) -> None:
    """[Sequence §3]: d12 + DEX, highest first, ties in favour of players (A44: then the
    higher DEX, then a d12 roll-off; a tie in the roll-off keeps the setup order)."""
    st = run.state
    if st.phase != "setup":
        raise RuleViolation("initiative is rolled once, when combat begins", rule=R_SEQUENCE)
    chars = [c for c in st.chars.values() if not c.dead]
    rolls: dict[str, Roll] = {
        c.id: dice.roll(12, f"initiative of {c.id}", subject=c.id) for c in chars
    }
    use_dex = st.options.tie_break == "dex_then_roll"

    def key(c: Char) -> tuple[int, int, int]:
        return (
            -(rolls[c.id].value + c.stats.DEX),
            0 if c.controller == "player" else 1,
            -c.stats.DEX if use_dex else 0,
        )

    groups: dict[tuple[int, int, int], list[Char]] = {}
    for c in chars:
        groups.setdefault(key(c), []).append(c)
    ties: dict[str, Roll] = {}
    for k in sorted(groups):
        if len(groups[k]) > 1:
            for c in groups[k]:
                ties[c.id] = dice.roll(12, f"initiative tie-break of {c.id}", subject=c.id)
    position = {c.id: i for i, c in enumerate(chars)}
    order = sorted(
        chars, key=lambda c: (*key(c), -(ties[c.id].value if c.id in ties else 0), position[c.id])
    )
    entries = tuple(
        InitiativeEntry(
            character=c.id,
            die=rolls[c.id],
            dex=c.stats.DEX,
            total=rolls[c.id].value + c.stats.DEX,
            controller=c.controller,
            tie_break=ties.get(c.id),
        )
        for c in chars
    )
    run.emit(InitiativeRolled(entries=entries, order=tuple(c.id for c in order)))
    run.emit(RoundStarted(round=1))
    advance(run, dice)


def _start_of_turn(run: Run, dice: Dice, c: Char) -> None:
    """Bleeding and burning ([Conditions]), then the death save (A04: at the start)."""
    for name in ("bleeding", "burning"):
        cond = run.state.chars[c.id].condition(name)
        if cond is None or cond.rating <= 0:
            continue
        before = run.state.chars[c.id].HEA.cur
        run.emit(
            CharacterDamaged(
                character=c.id,
                pool="HEA",
                amount=cond.rating,
                reason=f"{name} {cond.rating} at the start of the turn",
                rule=R_CONDITIONS,
            )
        )
        concentration_check(run, c.id, cond.rating, dice)  # A68: it does call for one
        if run.state.chars[c.id].HEA.cur <= 0 < before:
            after_loss(run, c.id, "HEA", before, name)
            run.emit(
                ConditionEnded(
                    character=c.id,
                    condition=name,
                    reason="its damage lowered HEA to 0 or less: a wound",
                    rule=R_CONDITIONS,
                )
            )
    cur = run.state.chars[c.id]
    g = cur.condition("grappled")
    if g is not None and g.source in run.state.chars:
        holder = run.state.chars[g.source]
        if holder.down or not adjacent(holder.pos, cur.pos):  # A32
            run.emit(
                ConditionEnded(
                    character=c.id,
                    condition="grappled",
                    reason=f"{holder.id} no longer holds it (down or not adjacent)",
                    rule=R_CONDITIONS,
                )
            )
            cur = run.state.chars[c.id]
    if cur.concentration is not None:  # [Types] Concentration: WIL each turn (A41)
        if cur.down or cur.WIL.cur < cur.concentration_rating:
            why = "unconscious" if cur.down else "not enough WIL to keep it up"
            end_concentration(run, c.id, why)
        else:
            run.emit(
                ConcentrationPaid(
                    character=c.id, power=cur.concentration, wil=cur.concentration_rating
                )
            )
        cur = run.state.chars[c.id]
    if cur.has("stunned") and run.state.options.stunned_loses == "standard":
        run.emit(StandardActionLost(character=c.id, lost="standard"))
    if cur.has("dying") and not cur.dead and run.state.options.death_save_timing == "start":
        death_save(run, dice, cur)


def advance(run: Run, dice: Dice) -> None:
    """Start the next turn in initiative order; a round ends when the order is done.

    Skipped: the dead, and the surprised in round 1 ([Sequence §4]). An unconscious
    character's turn is its death save, then it ends by itself.
    """
    for _ in range(3):  # at most: the rest of this round, then a whole new one
        st = run.state
        if st.phase != "combat":
            return
        for i in range(st.turn + 1, len(st.order)):
            c = st.chars[st.order[i]]
            if c.dead or (c.surprised and st.round == 1):
                continue
            run.emit(TurnStarted(character=c.id, round=st.round, index=i))
            _start_of_turn(run, dice, c)
            check_end(run)
            if run.state.phase != "combat":
                return
            c = run.state.chars[c.id]
            if c.down:
                end_turn(run, dice, c, "unconscious: the turn ends by itself")
            return
        run.emit(RoundStarted(round=st.round + 1))
    check_end(run)


def _regenerate(run: Run, dice: Dice, c: Char, skip_sta: bool) -> None:
    """[Regeneration] (R_REGEN; +d6 for each pool after Rest, A38).

    An invisible character's stamina is its side's ([Invisibility]; RULINGS
    "Invisible stamina"): its STA part is a side-only `Regenerated`, emitted every turn (with
    no gain when it spent stamina) from its side's dice, so that neither the event nor its
    absence tells a foe; its WIL part (spent on public powers) stays a public one."""
    hidden = c.side if c.has("invisible") else None
    own = dice if hidden is None else dice_for(dice, side_audience(hidden))
    sta_die = rest_sta = rest_wil = None
    sta_gain = wil_gain = 0
    if not c.sta_spent and not skip_sta:
        sta_die = own.roll(4, f"stamina regeneration of {c.id}", subject=c.id)
        sta_gain = sta_die.value + c.stats.END
        if c.rested:
            rest_sta = own.roll(6, f"rest (stamina) of {c.id}", subject=c.id)
            sta_gain += rest_sta.value
    if hidden is not None:
        run.emit(
            Regenerated(
                character=c.id,
                sta_die=sta_die,
                sta_gain=max(sta_gain, 0),
                rest_sta=rest_sta,
                hidden_side=hidden,
            )
        )
        sta_die = rest_sta = None
        sta_gain = 0
    if not c.wil_spent:
        wil_gain = c.stats.MIN
        if c.rested:
            rest_wil = dice.roll(6, f"rest (willpower) of {c.id}", subject=c.id)
            wil_gain += rest_wil.value
    if sta_die is None and wil_gain == 0:
        return
    run.emit(
        Regenerated(
            character=c.id,
            sta_die=sta_die,
            sta_gain=max(sta_gain, 0),  # "This cannot decrease your STA"
            wil_gain=max(wil_gain, 0),
            rest_sta=rest_sta,
            rest_wil=rest_wil,
        )
    )


def end_turn(run: Run, dice: Dice, c: Char, reason: str = "ended by its controller") -> None:
    """End of turn: drain recovery ([Stamina Damage]), regeneration, then the next turn."""
    o = run.state.options
    recovered = False
    if c.drained_at is not None and c.turns_taken > c.drained_at and c.has("exposed"):
        # an invisible character's drain was its side's: so is its recovery, from its dice
        hidden = c.side if c.has("invisible") else None
        own = dice if hidden is None else dice_for(dice, side_audience(hidden))
        die = own.roll(8, f"drain recovery of {c.id}", subject=c.id)
        gain = die.value + c.stats.END
        if c.rested and o.rest_applies_to_drain:
            gain += own.roll(6, f"rest (drain) of {c.id}", subject=c.id).value
        base = max(c.STA.cur, 0) if o.drain_floor_zero else c.STA.cur
        still = base + gain <= 0
        run.emit(
            DrainRecovered(
                character=c.id, die=die, gain=gain, still_drained=still, hidden_side=hidden
            )
        )
        if not still:
            run.emit(
                ConditionEnded(
                    character=c.id,
                    condition="exposed",
                    reason="the end of the turn after the drain",
                    rule=R_STAMINA,
                    hidden_side=hidden,
                )
            )
        recovered = True
    c = run.state.chars[c.id]
    ex = c.condition("exposed")
    if ex is not None and not ex.unsaveable and o.exposed_save == "auto_end_of_turn":
        run.emit(
            ConditionEnded(
                character=c.id,
                condition="exposed",
                reason="the end of its turn (option exposed_save)",
                rule=R_CONDITIONS,
                hidden_side=c.side if ex.hidden else None,  # a side-only Exposed's end
            )
        )
        c = run.state.chars[c.id]
    skip_sta = (recovered and not o.drain_also_regen) or c.drained_at is not None
    if not c.dead:
        _regenerate(run, dice, c, skip_sta)
    if c.has("dying") and not c.dead and o.death_save_timing == "end":
        death_save(run, dice, c)
    run.emit(TurnEnded(character=c.id, reason=reason))
    check_end(run)
    advance(run, dice)
