"""[Attacks] and [Defense and Focus] of seed 002: the Attack command (weapon or power;
a character, a structure or an unseen square), the roll, defence and damage, the
reaction window, and what the damage does once the reactions are in (`finish`).

Attack roll = dice + ability scores + bonuses + modifiers; damage = roll - DEF (FOC for
spells); 0 or less is a miss ([Attacks], [Defense and Focus]).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.dice import Dice, Roll
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import Attack
from domain.rulesets.tactical.conditions import can_react
from domain.rulesets.tactical.events import (
    AttackDeclared,
    AttackResolved,
    StructureDamaged,
    UnseenAttackResolved,
)
from domain.rulesets.tactical.geometry import distance
from domain.rulesets.tactical.hits import after_hit, concentration_check
from domain.rulesets.tactical.model import Char, Condition, Square, State, Structure
from domain.rulesets.tactical.modifiers import (
    attack_modifiers,
    cover_modifier,
    glimpsed,
    totally_concealed,
)
from domain.rulesets.tactical.pools import after_loss, check_end, gain_condition
from domain.rulesets.tactical.records import AttackRecord, Modifier, ReactionTaken, StatBonus
from domain.rulesets.tactical.rules import (
    R_ATTACKS,
    R_DUAL,
    R_STAMINA_ACTIONS,
    R_STANDARD,
    R_STRUCTURES,
    R_UNSEEN,
    Run,
    char,
    ensure_active,
    need_sta,
)
from domain.rulesets.tactical.weapons import (
    Weapon,
    attack_action,
    check_range,
    frightened,
    pool_of,
    roll_weapon,
    weapon_of,
)

__all__ = [
    "asks_reaction",
    "attack",
    "finish",
    "reactions_open",
    "resolve_in_turn",
    "single",
    "structure_damage",
]


def attack(run: Run, cmd: Attack, dice: Dice, *, resumed: bool = False) -> None:
    """An attack by the active character; `resumed`: after its opportunity attacks."""
    st = run.state
    a = char(st, cmd.character)
    if not resumed:
        ensure_active(st, a)
    w = weapon_of(st, a, cmd.weapon)
    action, sta = attack_action(st, a, w)
    if cmd.finisher:
        action = "finisher"
    if w.area is not None:
        raise RuleViolation(f"{w.id} is an area attack", rule=R_ATTACKS)  # decide routes those
    need_sta(st, a, sta + w.sta, "this attack")
    if w.wil and a.WIL.cur < w.wil:
        raise RuleViolation(f"{w.id} costs {w.wil} WIL", rule=R_ATTACKS)
    if cmd.target is not None and cmd.target not in st.structures:
        char(st, cmd.target)
    if cmd.dual or cmd.second_target is not None:
        _dual(run, cmd, dice, a, action, sta)
        return
    if cmd.target is not None:
        if cmd.target in st.structures:
            _attack_structure(run, cmd, dice, a, w, action, sta, offer=not resumed)
            return
        t = char(st, cmd.target)
        if totally_concealed(st, a, t):
            raise RuleViolation(
                f"{t.id} has total concealment: perceive it first or attack a square",
                rule=R_UNSEEN,
            )
        single(run, cmd, dice, a, w, action, sta, t, t.pos, unseen=False, offer=not resumed)
        return
    if cmd.square is None:
        raise RuleViolation("name a target, or a square", rule=R_ATTACKS)
    sq = (cmd.square[0], cmd.square[1])
    cid = st.occupied.get(sq)
    present = st.chars[cid] if cid is not None else None
    if present is not None and not totally_concealed(st, a, present):
        single(run, cmd, dice, a, w, action, sta, present, sq, unseen=False, offer=not resumed)
        return
    single(run, cmd, dice, a, w, action, sta, present, sq, unseen=True, offer=not resumed)


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
) -> None:
    """One attack roll against one target (or an unseen square), once it is valid.

    `offer`: a ranged or spell attack first offers opportunity attacks (before its roll).
    `collect`: the record is only rolled and appended there (a dual-wield's two rolls,
    resolved in turn by the caller).
    """
    from domain.rulesets.tactical.opportunity import offer_for_attack

    st = run.state
    throw = cmd.throw and w.kind == "melee"
    frightened(a, t.id if t else None)
    if cmd.finisher and (t is None or not (t.has("unconscious") or t.helpless)):
        raise RuleViolation("a finisher needs an unconscious or helpless foe", rule=R_STANDARD)
    check_range(st, a, w, sq, t, throw)
    if w.no_roll and t is not None and not unseen:
        _no_roll(run, cmd, dice, a, w, action, sta, t)
        return
    if offer and offer_for_attack(run, a, cmd, w.kind, None):
        return
    penalised = throw and not w.throw
    roll, dice_total = roll_weapon(dice, w, a.id, penalised)
    extra_dice: tuple[Roll, ...] = ()
    if also is not None:  # [Dual Wielding]: both attack rolls combined against one target
        roll2, total2 = roll_weapon(dice, also, a.id, False)
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
        mods = attack_modifiers(st, a, t, w.kind, perceived_unseen=perceived and concealed_total)
    else:
        mods = cover_modifier(st, a, sq, t)
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
        weapon_kind=w.kind,
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
        _finish_unseen(run, record, t, dice)
        return
    assert t is not None
    if ask and asks_reaction(st, t, record):
        run.emit(AttackDeclared(attack=record, reactor=t.id))
        return
    finish(run, record, (), dice, counts=counts)


def asks_reaction(st: State, t: Char, record: AttackRecord) -> bool:
    """A10: the attack waits for `t`'s reaction ("before damage is rolled") when it would
    deal damage and `t` may and can take one ([Stamina Actions], one a round)."""
    return (
        record.damage > 0
        and st.options.reaction_window == "ask"
        and can_react(st, t) is None
        and (st.active != t.id or st.options.react_on_own_turn)
        and bool(reactions_open(st, t, record))
    )


def resolve_in_turn(
    run: Run, records: list[AttackRecord], dice: Dice, *, first_counts: bool = False
) -> None:
    """Several attack records of one action (an area's targets, a dual-wield's two rolls),
    each target in turn: one that can react is asked first (the rest wait in the queue of
    its AttackDeclared), the others take the damage at once. `first_counts`: the first
    record carries the attack action and its costs (a dual wield); an area's went with
    its AreaCovered."""
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
                )
            )
            return
        finish(run, record, (), dice, counts=counts)
    check_end(run)


def _dual(run: Run, cmd: Attack, dice: Dice, a: Char, action: str, sta: int) -> None:
    """[Dual Wielding]: two weapons of one type (A64), no ability scores; two rolls against
    two targets as one attack action, or both rolls combined against one target."""
    st = run.state
    items = st.board.items
    main, off = items.get(a.main_hand or ""), items.get(a.off_hand or "")
    if main is None or off is None or not main.weapon_type or main.weapon_type != off.weapon_type:
        raise RuleViolation(
            "dual wielding needs two weapons of the same type, one in each hand", rule=R_DUAL
        )
    w1, w2 = weapon_of(st, a, main.id), weapon_of(st, a, off.id)
    if cmd.target is None:
        raise RuleViolation("name the target", rule=R_DUAL)
    t = char(st, cmd.target)
    if cmd.second_target is None:
        single(run, cmd, dice, a, w1, action, sta, t, t.pos, unseen=False, also=w2, dual=True)
        return
    t2 = char(st, cmd.second_target)
    if t2.id == t.id:
        raise RuleViolation("two rolls go against two different targets", rule=R_DUAL)
    for who in (t, t2):
        if totally_concealed(st, a, who):
            raise RuleViolation(f"{who.id} has total concealment", rule=R_UNSEEN)
    # Two targets: both rolled at once as one attack action; then each target in turn gets
    # its reaction window like any attack's ([Stamina Actions] dodge/parry/shield, A10).
    records: list[AttackRecord] = []
    single(run, cmd, dice, a, w1, action, sta, t, t.pos, unseen=False, dual=True, collect=records)
    single(run, cmd, dice, a, w2, action, 0, t2, t2.pos, unseen=False, dual=True, collect=records)
    resolve_in_turn(run, records, dice, first_counts=True)


def _no_roll(
    run: Run, cmd: Attack, dice: Dice, a: Char, w: Weapon, action: str, sta: int, t: Char
) -> None:
    """[Attacks]: "If an ability says it deals damage instead of an attack, then there is
    no attack roll": its dice are the damage; no defence, no modifiers, no reaction."""
    roll, dice_total = roll_weapon(dice, w, a.id, False)
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
    finish(run, record, (), dice)


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


def _finish_unseen(run: Run, record: AttackRecord, t: Char | None, dice: Dice) -> None:
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


def _attack_structure(
    run: Run, cmd: Attack, dice: Dice, a: Char, w: Weapon, action: str, sta: int, *, offer: bool
) -> None:
    """[Structures]: an attack on a structure; its HEA damage becomes STH damage."""
    st = run.state
    s: Structure = st.structures[cmd.target]  # type: ignore[index]
    if s.destroyed:
        raise RuleViolation(f"{s.id} is already destroyed", rule=R_STRUCTURES)
    sq = min(s.squares, key=lambda q: distance(a.pos, q, st.options.metric))
    throw = cmd.throw and w.kind == "melee"
    check_range(st, a, w, sq, None, throw)
    from domain.rulesets.tactical.opportunity import offer_for_attack

    if offer and offer_for_attack(run, a, cmd, w.kind, None):
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
        weapon_kind=w.kind,
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


def finish(
    run: Run,
    record: AttackRecord,
    reactions: tuple[ReactionTaken, ...],
    dice: Dice,
    *,
    counts: bool = True,
) -> None:
    """Apply the attack after its reactions: the damage, the pool hit, the consequences."""
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
    run.emit(
        AttackResolved(
            attack=record,
            reactions=reactions,
            exposed_bonus=bonus if not negated else 0,
            damage=max(final, 0),
            hit=hit,
            counts_action=counts,
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
