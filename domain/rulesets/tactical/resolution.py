"""Resolution of an attack record of seed 002 once it is rolled ([Attacks], [Stamina Actions]
reactions): whether the target is asked for a reaction ("before damage is rolled", A10),
several records of one action in turn (an area's targets, a dual wield's two rolls), and
`finish`: the reactions applied, the damage and the pool hit, the consequences; the
hidden outcome of an attack on an unseen square ([Targeting What You Can't See §2]) and
[Structures] STH damage.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from domain.dice import Dice
from domain.rulesets.tactical.conditions import as_foes_judge, can_react
from domain.rulesets.tactical.events import (
    AttackDeclared,
    AttackResolved,
    CharacterRevealed,
    StructureDamaged,
    UnseenAttackResolved,
)
from domain.rulesets.tactical.hits import after_hit, concentration_check
from domain.rulesets.tactical.model import Char, Condition, State
from domain.rulesets.tactical.modifiers import square_hidden
from domain.rulesets.tactical.pools import after_loss, check_end, gain_condition
from domain.rulesets.tactical.records import AttackRecord, ReactionTaken
from domain.rulesets.tactical.rules import R_STAMINA_ACTIONS, R_UNSEEN, Run

__all__ = [
    "asks_reaction",
    "attack_side",
    "finish",
    "finish_unseen",
    "finisher_spares",
    "reactions_open",
    "resolve_in_turn",
    "structure_damage",
]


def attack_side(a: Char, targets: Iterable[Char | None]) -> str | None:
    """The side an attack by `a` is told to (None: every side), decided once for its whole
    action and its dice drawn from that side's stream ([Targeting What You Can't See §1];
    RULINGS "Invisible stamina", attacks): a foe whose square some reader may not know
    (invisible, not glimpsed) named as a target is one `a`'s side perceived, which "knows
    where it is located on this turn"; the record carries its square and the modifiers
    that follow from it, so the observer and a third side may not read it (0.5.0)."""
    return a.side if any(t is not None and square_hidden(t) for t in targets) else None


def asks_reaction(st: State, t: Char, record: AttackRecord) -> bool:
    """A10: the attack waits for `t`'s reaction ("before damage is rolled") when it would
    deal damage and `t` may and can take one ([Stamina Actions], one a round)."""
    seen = as_foes_judge(t)  # the window is public: not by an invisible target's STA
    return (
        # not a creature the attacker cannot see, caught in an area (0.5.0): its window
        # named it and its square to every side, and a dodge then made the hit a miss, of
        # which §2 says the GM should not tell whether it was there (as an attack on its
        # square asks no reaction either: finish_unseen)
        not record.unseen
        and record.damage > 0
        and st.options.reaction_window == "ask"
        and can_react(st, seen) is None
        and (st.active != t.id or st.options.react_on_own_turn)
        and bool(reactions_open(st, seen, record))
    )


def reactions_open(state: State, t: Char, record: AttackRecord) -> tuple[str, ...]:
    """The reactions `t` could take against `record` with what it holds and its STA."""
    items = state.board.items
    held = [items[i] for i in (t.main_hand, t.off_hand) if i is not None and i in items]
    sta = t.STA.cur
    rich = state.options.allow_overspend
    out: list[str] = []
    if sta >= 6 or rich:
        out.append("dodge")
    if record.weapon_kind == "melee" and (sta >= 1 or rich) and any(i.parry for i in held):
        out.append("parry")
    if any(i.shield for i in held):
        out.append("shield")
    return tuple(out)


def resolve_in_turn(
    run: Run,
    records: list[AttackRecord],
    dice: Dice,
    *,
    first_counts: bool = False,
    hidden: str | None = None,
) -> None:
    """Several attack records of one action (an area's targets, a dual-wield's two rolls),
    each target in turn: one that can react is asked first (the rest wait in the queue of
    its AttackDeclared), the others take the damage at once. `first_counts`: the first
    record carries the attack action and its costs (a dual wield); an area's went with
    its AreaCovered. `hidden`: the action's side (`attack_side`)."""
    for i, record in enumerate(records):
        st = run.state
        if st.phase != "combat":
            return
        counts = first_counts and i == 0
        t = st.chars[record.target or ""]
        if asks_reaction(st, t, record):
            run.emit(
                AttackDeclared(
                    attack=record,
                    reactor=t.id,
                    queue=tuple(records[i + 1 :]),
                    counts_action=counts,
                    hidden_side=hidden,
                )
            )
            return
        finish(run, record, (), dice, counts=counts, hidden=hidden)
    check_end(run)


def finish_unseen(run: Run, record: AttackRecord, t: Char | None, dice: Dice) -> None:
    """[Targeting What You Can't See §2]: a miss must not tell whether anyone was there.

    The public event is the same for an empty square and a miss; who was there is in a
    referee-only event, emitted in both cases so that its presence tells nothing either.
    """
    damage = record.damage if t is not None else 0
    hit = t is not None and damage > 0
    if hit:
        assert t is not None
        record = replace(record, target=t.id, target_kind="character")
        finish(run, record, (), dice)
    else:
        public = replace(record, defence=0, damage=0, target=None)
        run.emit(AttackResolved(attack=public, damage=0, hit=False))
    run.emit(
        UnseenAttackResolved(
            attacker=record.attacker,
            squares=(record.square,),
            present=(t.id,) if t is not None else (),
            detail=(
                "empty square: the attack fails automatically"
                if t is None
                else f"{t.id} was there: total {record.total} - {record.defence_stat} "
                f"{record.defence} = {damage}"
            ),
        )
    )


def _perceived_hidden(st: State, record: AttackRecord, t: Char, hidden: str | None) -> bool:
    """A side-only attack (`attack_side`) on a foe whose square some reader may not know."""
    a = st.chars.get(record.attacker)
    return hidden is not None and a is not None and t.side != a.side and square_hidden(t)


def structure_damage(run: Run, sid: str, pool: str, damage: int) -> None:
    """[Structures]: every 10 HEA damage is 1 STH (cumulative, A62); STA/WIL do nothing."""
    s = run.state.structures[sid]
    if pool != "HEA" or damage <= 0 or s.destroyed:
        return
    o = run.state.options
    total = s.hea_damage + damage
    per_hit = (s.sth_max - s.sth) + damage // o.sth_divisor
    lost = per_hit if o.sth_per_hit else total // o.sth_divisor
    after = max(s.sth_max - lost, 0)
    run.emit(
        StructureDamaged(
            structure=sid,
            hea_damage=damage,
            total_hea_damage=total,
            sth_before=s.sth,
            sth_after=after,
            destroyed=after <= 0,
        )
    )


def finisher_spares(st: State, record: AttackRecord, t: Char | None) -> bool:
    """[Standard Actions] Finisher: "it deals a wound or failed death save if they are
    dying". `finisher_on_dying` "death_save_only" reads the failed death save as what it
    deals to a dying foe, instead of its damage; "both" (the default) deals both."""
    return (
        record.action == "finisher"
        and t is not None
        and t.has("dying")
        and st.options.finisher_on_dying == "death_save_only"
    )


def finish(
    run: Run,
    record: AttackRecord,
    reactions: tuple[ReactionTaken, ...],
    dice: Dice,
    *,
    counts: bool = True,
    hidden: str | None = None,
) -> None:
    """Apply the attack after its reactions: the damage, the pool hit, the consequences.
    `hidden`: the side its action is told to (`attack_side`)."""
    st = run.state
    damage = record.damage
    negated = False
    for r in reactions:
        if r.kind == "dodge":
            damage -= r.value
        elif r.kind in ("parry", "shield") and r.effect in ("parried", "shielded"):
            negated = True
    bonus = 0
    t = st.chars.get(record.target) if record.target_kind == "character" and record.target else None
    if (
        t is not None
        and t.has("exposed")
        and damage > 0
        and st.options.exposed_bonus == "to_damage"
    ):
        bonus = st.options.exposed_amount
    final = damage + bonus
    hit = final > 0
    if negated:
        shield = any(r.kind == "shield" and r.effect == "shielded" for r in reactions)
        hit = shield and not st.options.shield_is_miss
        final = 0
    elif hit and finisher_spares(st, record, t):
        final = bonus = 0  # [Standard Actions] Finisher: the failed death save instead (A06)
    run.emit(
        AttackResolved(
            attack=record,
            reactions=reactions,
            exposed_bonus=bonus if not negated else 0,
            damage=max(final, 0),
            hit=hit,
            counts_action=counts,
            hidden_side=hidden,
        )
    )
    if t is not None and hit and (record.unseen or _perceived_hidden(st, record, t, hidden)):
        # [Targeting What You Can't See §4]: "the target only has concealment instead of
        # total concealment until the end of their next turn" (0.3.0: evolve reads how
        # long from this event; a hit stored before it alone kept the old length). Since
        # 0.5.0 also a hit on a foe the attacker perceived (§1 is a step of the same
        # procedure): its square is public from then, as its damage is (the view's HEA)
        run.emit(
            CharacterRevealed(
                character=t.id,
                square=t.pos,
                by=record.attacker,
                reason=f"hit by {record.attacker} in {list(t.pos)}, "
                f"{'unseen' if record.unseen else 'perceived'}: concealment only until the "
                "end of its next turn",
                rule=R_UNSEEN,
                glimpse_ends_with_turn=True,
            )
        )
    for r in reactions:
        if r.kind in ("shield", "parry", "dodge") and r.sta:
            c = run.state.chars[r.character]
            if r.kind == "shield" and st.options.shield_exposure == "separate_saveable":
                if c.STA.cur <= 0 < c.STA.cur + r.sta:
                    gain_condition(
                        run,
                        c.id,
                        Condition(name="exposed", no_save_before=c.turns_taken + 2),
                        "shielded down to 0 or less STA (A17)",
                        R_STAMINA_ACTIONS,
                        # an invisible shielder's STA is its side's ([Invisibility]; RULINGS
                        # "Invisible stamina"): so is the Exposed it brings, as a drain's
                        c.side if c.has("invisible") else None,
                    )
                continue
            after_loss(run, r.character, "STA", c.STA.cur + r.sta, f"{r.kind} reaction")
    if record.target_kind == "structure" and record.target is not None:
        structure_damage(run, record.target, record.pool, final)
    elif t is not None and final > 0:
        before = getattr(t, record.pool).cur
        after_loss(run, t.id, record.pool, before, f"attack by {record.attacker}")
        concentration_check(run, t.id, final, dice)
    if t is not None and hit:
        after_hit(run, record, t.id)
    if record.sta_spent:
        c = run.state.chars[record.attacker]
        after_loss(run, c.id, "STA", c.STA.cur + record.sta_spent, "stamina spent")
    check_end(run)
