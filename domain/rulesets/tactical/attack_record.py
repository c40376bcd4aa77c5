"""One attack roll of seed 002 ([Attacks], [Defense and Focus]): `single` builds the
AttackRecord against one target or an unseen square (dice + ability scores + bonuses +
modifiers; damage = roll - DEF, FOC for spells; 0 or less is a miss) and hands it on;
an ability dealing damage without a roll; an attack on a structure ([Structures]).
"""

from __future__ import annotations

from domain.actors import side_audience
from domain.dice import Dice, Roll, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import Attack
from domain.rulesets.tactical.events import AttackDeclared
from domain.rulesets.tactical.fear import check_target
from domain.rulesets.tactical.geometry import distance
from domain.rulesets.tactical.model import Char, Square, Structure
from domain.rulesets.tactical.modifiers import attack_modifiers, cover_modifier, glimpsed
from domain.rulesets.tactical.opportunity import offer_for_attack
from domain.rulesets.tactical.records import AttackRecord, Modifier, StatBonus
from domain.rulesets.tactical.resolution import (
    asks_reaction,
    attack_side,
    finish,
    finish_unseen,
)
from domain.rulesets.tactical.rules import R_STANDARD, R_STRUCTURES, R_UNSEEN, Run
from domain.rulesets.tactical.weapons import Weapon, check_range, pool_of, roll_weapon

__all__ = ["attack_structure", "single"]


def single(
    run: Run,
    cmd: Attack,
    dice: Dice,
    a: Char,
    w: Weapon,
    action: str,
    sta: int,
    t: Char | None,
    sq: Square,
    *,
    unseen: bool,
    extra: tuple[Modifier, ...] = (),
    also: Weapon | None = None,
    dual: bool = False,
    ask: bool = True,
    counts: bool = True,
    after_parry: bool = False,
    offer: bool = False,
    collect: list[AttackRecord] | None = None,
    hidden: str | None = None,
) -> None:
    """One attack roll against one target (or an unseen square), once it is valid.

    `offer`: a ranged or spell attack first offers opportunity attacks (before its roll).
    `collect`: the record is only rolled and appended there (a dual-wield's two rolls,
    resolved in turn by the caller). `hidden`: the side its action is told to, when the
    caller decided it for the action (a dual wield's two targets); else `attack_side`.
    """
    st = run.state
    if hidden is None and not unseen and action != "opportunity":
        # (an opportunity attack answers a public window, which opens on an unseen
        # provoker only under hidden_opportunity `offered`: it told what it names)
        hidden = attack_side(a, (t,))
    throw = cmd.throw and w.kind == "melee"
    # [Throwing Melee Weapons]: a thrown weapon makes a ranged attack (it provokes, trigger
    # (b); no parry, which answers a melee attack; prone: -2, not combat advantage)
    kind = "ranged" if throw else w.kind
    if not unseen:
        check_target(st, a, t.id if t else None)  # [Conditions] Frightened (A31)
    if cmd.finisher and (t is None or not (t.has("unconscious") or t.helpless)):
        raise RuleViolation("a finisher needs an unconscious or helpless foe", rule=R_STANDARD)
    check_range(st, a, w, sq, t, throw)
    if w.no_roll and t is not None and not unseen:
        _no_roll(run, cmd, dice, a, w, action, sta, t, hidden)
        return
    if offer and offer_for_attack(run, a, cmd, kind, None):
        return
    penalised = throw and not w.throw
    # a side-only attack's dice are that side's stream's (domain.dice, "Hidden dice")
    own = dice if hidden is None else dice_for(dice, side_audience(hidden))
    roll, dice_total = roll_weapon(own, w, a.id, penalised)
    extra_dice: tuple[Roll, ...] = ()
    if also is not None:  # [Dual Wielding]: both attack rolls combined against one target
        roll2, total2 = roll_weapon(own, also, a.id, False)
        if roll2 is not None:
            extra_dice = (roll2,)
        dice_total += total2
    abilities: tuple[StatBonus, ...] = ()
    if not penalised and not dual:
        abilities = tuple(StatBonus(stat=s, value=getattr(a.stats, s)) for s in w.add_stats)
    mods: list[Modifier] = []
    if t is not None and not unseen:
        perceived = t.id in a.perceived or glimpsed(t)
        concealed_total = t.has("invisible") or st.board.concealment.get(t.pos) == "total"
        mods = attack_modifiers(st, a, t, kind, perceived_unseen=perceived and concealed_total)
    else:
        # [Targeting What You Can't See §2]: the figures of an attack on a square are the
        # same whoever stands there (a miss is public): cover as for an empty square, so
        # neither the hidden one's allies on the line nor its superior cover show
        mods = cover_modifier(st, a, sq, None)
        mods.append(
            Modifier(
                kind="unseen_square",
                value=-st.options.unseen_square_penalty,
                reason=f"attack on square {list(sq)} ({a.id} cannot see into it)",
                rule=R_UNSEEN,
                squares=(sq,),
            )
        )
    mods += extra
    bonus = 0 if penalised else w.bonus + (also.bonus if also is not None else 0)
    total = dice_total + sum(b.value for b in abilities) + bonus + sum(m.value for m in mods)
    spell = w.kind == "spell"
    defence = 0 if t is None else (t.FOC if spell else t.DEF)
    record = AttackRecord(
        attacker=a.id,
        target=None if (unseen and t is None) else (t.id if t else None),
        target_kind="character" if t is not None and not unseen else "square",
        square=sq,
        weapon=w.id,
        weapon_kind=kind,
        action=action,  # type: ignore[arg-type]
        sta_spent=sta + w.sta,
        wil_spent=w.wil,
        dice=roll,
        extra_dice=extra_dice,
        dual=dual,
        dice_total=dice_total,
        halved=penalised,
        abilities=abilities,
        bonus=bonus,
        modifiers=tuple(mods),
        total=total,
        defence_stat="FOC" if spell else "DEF",
        defence=defence,
        pool=pool_of(w, cmd.pool),
        damage=total - defence,
        unseen=unseen,
        after_parry=after_parry,
    )
    if collect is not None:
        collect.append(record)
        return
    if unseen:
        finish_unseen(run, record, t, dice)
        return
    assert t is not None
    if ask and asks_reaction(st, t, record):
        run.emit(AttackDeclared(attack=record, reactor=t.id, hidden_side=hidden))
        return
    finish(run, record, (), dice, counts=counts, hidden=hidden)


def _no_roll(
    run: Run,
    cmd: Attack,
    dice: Dice,
    a: Char,
    w: Weapon,
    action: str,
    sta: int,
    t: Char,
    hidden: str | None,
) -> None:
    """[Attacks]: "If an ability says it deals damage instead of an attack, then there is
    no attack roll": its dice are the damage; no defence, no modifiers, no reaction."""
    own = dice if hidden is None else dice_for(dice, side_audience(hidden))
    roll, dice_total = roll_weapon(own, w, a.id, False)
    record = AttackRecord(
        attacker=a.id,
        target=t.id,
        target_kind="character",
        square=t.pos,
        weapon=w.id,
        weapon_kind=w.kind,
        action=action,  # type: ignore[arg-type]
        sta_spent=sta + w.sta,
        wil_spent=w.wil,
        dice=roll,
        dice_total=dice_total,
        total=dice_total,
        defence_stat="none",
        defence=0,
        pool=pool_of(w, cmd.pool),
        damage=dice_total,
    )
    finish(run, record, (), dice, hidden=hidden)


def attack_structure(
    run: Run, cmd: Attack, dice: Dice, a: Char, w: Weapon, action: str, sta: int, *, offer: bool
) -> None:
    """[Structures]: an attack on a structure; its HEA damage becomes STH damage."""
    st = run.state
    s: Structure = st.structures[cmd.target]  # type: ignore[index]
    if s.destroyed:
        raise RuleViolation(f"{s.id} is already destroyed", rule=R_STRUCTURES)
    if not s.squares:  # [Wall]: every section discarded, it stands nowhere (was a 500)
        raise RuleViolation(f"{s.id} has no section standing", rule=R_STRUCTURES)
    check_target(st, a, s.id)  # [Conditions] Frightened of an object (A31)
    sq = min(s.squares, key=lambda q: distance(a.pos, q, st.options.metric))
    throw = cmd.throw and w.kind == "melee"
    # [Throwing Melee Weapons]: a thrown weapon makes a ranged attack (it provokes, trigger
    # (b); no parry, which answers a melee attack; prone: -2, not combat advantage)
    kind = "ranged" if throw else w.kind
    check_range(st, a, w, sq, None, throw)
    if offer and offer_for_attack(run, a, cmd, kind, None):
        return
    penalised = throw and not w.throw
    roll, dice_total = roll_weapon(dice, w, a.id, penalised)
    abilities = (
        ()
        if penalised
        else tuple(StatBonus(stat=x, value=getattr(a.stats, x)) for x in w.add_stats)
    )
    bonus = 0 if penalised else w.bonus
    total = dice_total + sum(b.value for b in abilities) + bonus
    spell = w.kind == "spell"
    defence = s.FOC if spell else s.DEF
    record = AttackRecord(
        attacker=a.id,
        target=s.id,
        target_kind="structure",
        square=sq,
        weapon=w.id,
        weapon_kind=kind,
        action=action,  # type: ignore[arg-type]
        sta_spent=sta + w.sta,
        wil_spent=w.wil,
        dice=roll,
        dice_total=dice_total,
        halved=penalised,
        abilities=abilities,
        bonus=bonus,
        total=total,
        defence_stat="FOC" if spell else "DEF",
        defence=defence,
        pool=pool_of(w, cmd.pool),
        damage=total - defence,
    )
    finish(run, record, (), dice)
