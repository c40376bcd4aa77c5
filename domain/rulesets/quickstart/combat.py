"""Combat of seed 001 ("Resolving Combat", "The troops", "Defenses and siege weapons").

An exchange: casters roll first (first strike) and their hits are assigned before the
others roll; then every other squad rolls. Hits wait in the combat's queue until the side
that took them chooses its casualties (automatic with one candidate). Then the attacker
presses (another exchange) or retreats.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from domain.dice import Dice
from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.quickstart.commands import Attack, ChooseCasualty, FireEngine
from domain.rulesets.quickstart.events import (
    AttackPressed,
    BarrierHit,
    CombatEnded,
    CombatRolled,
    CombatStarted,
    DiceModifier,
    EngineDestroyed,
    EngineFired,
    HitApplied,
    PressOrRetreatOffered,
    SquadRevealed,
    SquadRoll,
    SquadShift,
    SquadsRetreated,
)
from domain.rulesets.quickstart.grid import Pos, adjacent, distance, neighbours
from domain.rulesets.quickstart.hits import any_last, cannot_take, may_take, score
from domain.rulesets.quickstart.knowledge import hidden_at
from domain.rulesets.quickstart.model import Circle, Combat, Hit, Squad, State
from domain.rulesets.quickstart.options import Options
from domain.rulesets.quickstart.rules import (
    R_ACTION,
    R_COMBAT,
    R_HEROES,
    R_SIEGE,
    Run,
    blocked,
    check_battle_end,
    retreat_heroes_of,
)

__all__ = [
    "apply_hit",
    "attack",
    "candidates",
    "choose_casualty",
    "fire_engine",
    "press",
    "reaches",
    "retreat",
]


def _eight(state: State) -> bool:
    return state.board.options.adjacency == "eight"


def reaches(state: State, a: Squad, t: Squad) -> bool:
    """Base contact, or a caster within caster_range ("The troops": Casters)."""
    o = state.board.options
    return _reaches_any(a, (t,), o.adjacency == "eight", o.caster_range)


def _reaches_any(a: Squad, targets: Iterable[Squad], eight: bool, caster_range: int) -> bool:
    """Whether `a` reaches one of `targets` (see `reaches`): base contact is a distance of
    one, worked out inline as the loops of attack ask it for every pair."""
    ax, ay = a.x, a.y
    caster = a.kind == "caster"
    for t in targets:
        dx, dy = abs(ax - t.x), abs(ay - t.y)
        d = (dx if dx > dy else dy) if eight else dx + dy
        if d == 1 or (caster and d <= caster_range):
            return True
    return False


def _reached_by_any(attackers: list[Squad], t: Squad, eight: bool, caster_range: int) -> bool:
    """Whether one of `attackers` reaches `t` (see `reaches`)."""
    one = (t,)
    # A loop: any() over a generator costs more for the few attackers of a combat.
    for a in attackers:  # noqa: SIM110
        if _reaches_any(a, one, eight, caster_range):
            return True
    return False


def _by_id(q: Squad) -> str:
    return q.id


def _alive(state: State, ids: tuple[str, ...]) -> list[str]:
    return [i for i in ids if i in state.squads]


def candidates(state: State) -> list[str]:
    """The squads that may take the first queued hit: the victim side's squads in combat;
    of those, for a hit only a 5 scored the squads on a magic circle of the scoring side,
    for a paladin's further 6 the undead squads."""
    c = state.combat
    if c is None or not c.queue:
        return []
    hit = c.queue[0]
    side = hit.victim_side
    ids = _alive(state, c.attackers if side == c.attacker_side else c.defenders)
    return ids if hit.only == "any" else may_take(state, c, hit, ids)


def _squad(state: State, sid: str) -> Squad:
    q = state.squads.get(sid)
    if q is None:
        raise UnknownEntity(f"no squad {sid!r}", rule=R_COMBAT, squad=sid)
    return q


def attack(run: Run, cmd: Attack, dice: Dice) -> None:
    st = run.state
    side = st.active_side
    if st.step != "combat":
        raise RuleViolation(
            "attacks are resolved after all of the side's squads have moved (end the moves "
            "step first)",
            rule=R_ACTION,
        )
    if not cmd.squads or not cmd.targets:
        raise RuleViolation("an attack needs attacking squads and targets", rule=R_COMBAT)
    if (len(cmd.squads) > 1 and len(set(cmd.squads)) != len(cmd.squads)) or (
        len(cmd.targets) > 1 and len(set(cmd.targets)) != len(cmd.targets)
    ):  # one squad cannot be named twice: no set for it
        raise RuleViolation("a squad is named twice", rule=R_COMBAT)
    attackers = [_squad(st, s) for s in cmd.squads]
    targets = [_squad(st, s) for s in cmd.targets]
    for a in attackers:
        if a.side != side:
            raise RuleViolation(f"{a.id} is not a squad of the acting side", rule=R_ACTION)
        if a.standard_used:
            raise RuleViolation(f"{a.id} has used its standard action", rule=R_ACTION)
    defender_side = targets[0].side
    for t in targets:
        if t.side == side:
            raise RuleViolation(f"{t.id} is not an enemy squad", rule=R_COMBAT)
        if t.side != defender_side:
            raise RuleViolation("all targets must belong to one side", rule=R_COMBAT)
        if t.hidden:
            raise RuleViolation(f"{t.id} cannot be seen", rule=R_COMBAT)
    o = st.board.options
    eight, caster_range = o.adjacency == "eight", o.caster_range
    for a in attackers:
        if not _reaches_any(a, targets, eight, caster_range):
            raise RuleViolation(
                f"{a.id} is not in base contact with (or, a caster, in range of) any target",
                rule=R_COMBAT,
            )
    # One target: every attacker reaches it (above), so it is reached.
    for t in targets if len(targets) > 1 else ():
        if not _reached_by_any(attackers, t, eight, caster_range):
            raise RuleViolation(f"no attacker is in contact with {t.id}", rule=R_COMBAT)
    defenders = [t.id for t in targets]
    members = attackers + targets  # every squad in the combat, attackers first
    if o.casters_assist_defence:
        # The defending side's other visible casters, by id, join when they reach an
        # attacker. Filtered before sorting: few squads are such casters.
        assisting = [
            q
            for q in st.squads.values()
            if q.kind == "caster"
            and q.side == defender_side
            and not q.hidden
            and q.id not in defenders
        ]
        for q in sorted(assisting, key=_by_id):
            if _reaches_any(q, attackers, eight, caster_range):
                defenders.append(q.id)
                members.append(q)
    assert side is not None
    run.emit(
        CombatStarted(
            attacker_side=side,
            defender_side=defender_side,
            attackers=tuple([a.id for a in attackers]),
            defenders=tuple(defenders),
            positions={q.id: (q.x, q.y) for q in members},
            ambush=tuple([a.id for a in attackers if a.hidden]),
        )
    )
    _exchange(run, dice)


def _alive_by_kind(
    squads: dict[str, Squad], ids: tuple[str, ...]
) -> tuple[list[Squad], list[Squad], list[Squad]]:
    """The squads of `ids` still alive, in order: all of them, the casters, the others."""
    alive: list[Squad] = []
    casters: list[Squad] = []
    others: list[Squad] = []
    for i in ids:
        q = squads.get(i)
        if q is not None:
            alive.append(q)
            if q.kind == "caster":
                casters.append(q)
            else:
                others.append(q)
    return alive, casters, others


def _exchange(run: Run, dice: Dice) -> None:
    st = run.state
    c = st.combat
    assert c is not None
    # All attackers are of the attacker's side and all defenders of the defender's (attack
    # checks it): the attackers roll first, and every roller of a side faces the same foes.
    attackers, a_casters, a_others = _alive_by_kind(st.squads, c.attackers)
    defenders, d_casters, d_others = _alive_by_kind(st.squads, c.defenders)
    alive = attackers, defenders
    if (
        c.next_roll == "first_strike"
        and st.board.options.caster_first_strike
        and (a_casters or d_casters)
    ):
        _roll(run, dice, (a_casters, d_casters), alive, "first_strike", "main")
    elif c.next_roll == "main":
        _roll(run, dice, (a_others, d_others), alive, "main", "none")
    else:
        _roll(run, dice, alive, alive, "main", "none")
    _process(run, dice)


def _opposition(
    foes: list[Squad], circles: dict[str, Circle], roller_side: str
) -> tuple[str | None, bool, bool] | None:
    """What the opposing squads still alive (`foes`) bring against a squad of `roller_side`,
    in one pass: (the first squad with an intimidate boost, one stands on a circle of
    roller_side, one is undead), or None when none is left. The same for every roller of
    that side."""
    if not foes:
        return None
    intimidator: str | None = None
    on_circle = undead = False
    for q in foes:
        if intimidator is None and "intimidate" in q.boosts:
            intimidator = q.id
        # Magic circles: a squad on an enemy circle is hit on a 5 or 6. Circles are few:
        # scanning them beats building a map of their squares for each roll.
        if circles and not on_circle:
            for k in circles.values():
                if k.x == q.x and k.y == q.y:
                    on_circle = k.side == roller_side
                    break
        if q.undead:
            undead = True
    return intimidator, on_circle, undead


def _roll(
    run: Run,
    dice: Dice,
    rollers: tuple[list[Squad], list[Squad]],
    alive: tuple[list[Squad], list[Squad]],
    stage: Literal["first_strike", "main"],
    next_roll: Literal["main", "none"],
) -> None:
    """One roll of the combat: `rollers` and `alive` hold (attackers, defenders)."""
    st = run.state
    c = st.combat
    assert c is not None
    attackers, defenders = alive
    rolls: list[SquadRoll] = []
    # Rolls against each side: the hits it takes, and how many of the rollers' soldiers
    # scored (each soldier ignores one hit on its own side).
    on_defenders, attacking_soldiers = _side_rolls(
        st, c, dice, rollers[0], defenders, c.attacker_side, c.defender_side, rolls
    )
    on_attackers, defending_soldiers = _side_rolls(
        st, c, dice, rollers[1], attackers, c.defender_side, c.attacker_side, rolls
    )
    healed: list[str] = []
    queue: list[Hit] = []
    ignored = {c.defender_side: _taken(on_defenders, defending_soldiers, defenders, healed, queue)}
    ignored[c.attacker_side] = _taken(on_attackers, attacking_soldiers, attackers, healed, queue)
    run.emit(
        CombatRolled(
            stage=stage,
            rolls=tuple(rolls),
            hits=tuple(queue),
            ignored=ignored,
            healed=tuple(healed),
            next_roll=next_roll,
        )
    )


def _side_rolls(
    st: State,
    c: Combat,
    dice: Dice,
    rollers: list[Squad],
    foes: list[Squad],
    side: str,
    foe_side: str,
    rolls: list[SquadRoll],
) -> tuple[list[Hit], int]:
    """The combat dice of `side`'s rollers (appended to `rolls`): the hits they score on
    `foe_side`, strongest source first, and how many soldiers among them scored."""
    if not rollers:
        return [], 0
    brought = _opposition(foes, st.board.circles, side)
    if brought is None:
        return [], 0  # no foe left: the side does not roll
    intimidator, on_circle, undead = brought
    o = st.board.options
    ambush = c.ambush
    hit_on = o.hit_on
    # Magic circles: "while standing on a magic circle, a squad is hit on a 5 or 6": a die
    # from circle_hit_on up to hit_on scores only against a squad on such a circle.
    band = o.circle_hit_on if on_circle and o.circle_hit_on < hit_on else None
    # Hero Units: intimidate "a penalty to their attack", one die fewer
    penalty = o.intimidate_penalty if intimidator is not None else 0
    hits: list[Hit] = []
    soldiers = 0
    for s in rollers:
        sid = s.id
        fired = s.engines_fired
        n = s.level - fired - penalty
        if sid in ambush:
            n += o.ambush_bonus_dice  # Hero Units: stealth ambush
        mods: tuple[DiceModifier, ...] = ()
        if fired or penalty or sid in ambush or n < 0:  # rare: the plain count needs none
            mods = _dice_modifiers(s, fired, penalty, intimidator, sid in ambush, n, o)
        if n < 0:
            n = 0
        ds = dice.roll_many(n, 6, f"combat dice of {sid}", subject=sid)
        sixes = fives = 0
        for v in ds.values:
            if v >= hit_on:
                sixes += 1
            elif band is not None and v >= band:
                fives += 1
        scored = score(s, sixes, fives, undead, o.arcana_extra_hits)
        circle_only = scored.count("circle")
        undead_only = scored.count("undead")
        rolls.append(
            SquadRoll(
                squad=sid,
                side=side,
                dice=ds,
                hit_on=hit_on,
                hits=len(scored),
                circle_hit_on=band,
                circle_only=circle_only,
                undead_only=undead_only,
                level=s.level,
                modifiers=mods,
            )
        )
        if scored:
            for only in scored:
                hits.append(Hit(victim_side=foe_side, source=sid, source_level=s.level, only=only))
            if s.kind == "soldier":
                soldiers += 1
    if len(hits) > 1:
        hits.sort(key=_strongest_first)  # stable: equal levels keep their roll order
    return hits, soldiers


def _dice_modifiers(
    s: Squad,
    fired: int,
    penalty: int,
    intimidator: str | None,
    ambush: bool,
    n: int,
    o: Options,
) -> tuple[DiceModifier, ...]:
    """Why `s` rolls other than its level in dice (issue 32), each with its rule; `n` is
    the count before the floor at none."""
    out: list[DiceModifier] = []
    if fired:
        # Defenses and siege weapons: "For every siege engine a squad fires during combat
        # resolution, their combat dice is reduced by 1"
        out.append(
            DiceModifier(
                value=-fired,
                reason=f"fired {fired} siege engine{'s' if fired > 1 else ''}",
                rule=R_SIEGE,
            )
        )
    if penalty:
        out.append(
            DiceModifier(value=-penalty, reason=f"intimidated by {intimidator}", rule=R_HEROES)
        )
    if ambush:
        out.append(
            DiceModifier(
                value=o.ambush_bonus_dice, reason="ambush: attacked from hiding", rule=R_HEROES
            )
        )
    if n < 0:
        out.append(DiceModifier(value=-n, reason="a count below 0 dice rolls none", rule=R_COMBAT))
    return tuple(out)


def _taken(
    got: list[Hit], ignore: int, squads: list[Squad], healed: list[str], queue: list[Hit]
) -> int:
    """How many of the hits `got` by `squads`' side are ignored (The troops: soldiers; Hero
    Units: the first squad with heal left, added to `healed`); the rest joins `queue`."""
    if len(got) > ignore:
        for q in squads:
            if q.heal_left > 0:  # Hero Units: heal
                ignore += q.heal_left
                healed.append(q.id)
                break
    if ignore > len(got):
        ignore = len(got)  # no more hits ignored than taken
    rest = got[ignore:]
    if len(rest) > 1:
        # The hits only some squads may take come first, so that a casualty chosen for an
        # ordinary hit never leaves them without the squad they were scored against.
        rest.sort(key=any_last)
    queue += rest
    return ignore


def _strongest_first(h: Hit) -> int:
    return -h.source_level


def apply_hit(
    run: Run, dice: Dice, squad_id: str, source: str, source_level: int, queued: bool
) -> None:
    """One hit on one squad: two-hit rule, medic saving throw, destruction and its sequels."""
    st = run.state
    o = st.board.options
    t = st.squads[squad_id]
    outcome: Literal["destroyed", "wounded", "saved"] = "destroyed"
    medic: str | None = None
    save = None
    if (
        source_level > 0
        and t.level >= o.half_level_ratio * source_level
        and t.wounds + 1 < o.hits_to_destroy_stronger
    ):
        outcome = "wounded"  # Resolving Combat: a half-level squad needs two hits
    else:
        eight = o.adjacency == "eight"
        # A hidden medic does not save (ruling): its saving throw would show it, and the
        # dice a command needs would depend on a squad its giver may not see.
        medics = [
            m
            for m in st.squads.values()
            if m.kind == "medic"  # few squads are medics: the rarest test first
            and m.side == t.side
            and m.id != t.id
            and not m.hidden
            and adjacent((m.x, m.y), (t.x, t.y), eight)
        ]
        if medics:
            m = min(medics, key=lambda m: (-m.level, m.id))
            medic = m.id
            save = dice.roll(o.medic_save_sides, f"saving throw of {m.id} for {t.id}", subject=m.id)
            if save.value + m.level >= o.medic_save_dc:
                outcome = "saved"
    run.emit(
        HitApplied(
            squad=t.id,
            side=t.side,
            source=source,
            outcome=outcome,
            queued=queued,
            medic=medic,
            save=save,
        )
    )
    if outcome == "destroyed":
        retreat_heroes_of(run, t)
        if not queued:
            check_battle_end(run)  # an engine's hit stands alone: the end is checked at once


def _process(run: Run, dice: Dice) -> None:
    while True:
        st = run.state
        c = st.combat
        if st.phase == "over" or c is None or c.awaiting:
            return
        if c.queue:
            hit = c.queue[0]
            cands = candidates(st)
            if not cands:
                run.emit(
                    HitApplied(
                        squad="", side=hit.victim_side, source=hit.source, outcome="no_target"
                    )
                )
            elif len(cands) == 1:
                apply_hit(run, dice, cands[0], hit.source, hit.source_level, True)
            else:
                return  # the victim side chooses its casualty
            continue
        # Resolving Combat: "each squad in the combat rolls" at once, so the hits of one
        # roll are simultaneous: all of them are applied (the attacker's and the defender's)
        # before the end of the battle is checked, and both sides may be destroyed by one
        # exchange (issue 32: "no squads left on any side", no winner)
        check_battle_end(run)
        if run.state.phase == "over":
            return
        alive = st.squads.keys()
        if alive.isdisjoint(c.attackers) or alive.isdisjoint(c.defenders):
            run.emit(CombatEnded(reason="destroyed"))
            return
        if c.next_roll == "main":
            _exchange(run, dice)
            return
        run.emit(PressOrRetreatOffered(side=c.attacker_side))
        return


def _combat(state: State) -> Combat:
    if state.combat is None:
        raise RuleViolation("no combat is being resolved", rule=R_COMBAT)
    return state.combat


def choose_casualty(run: Run, cmd: ChooseCasualty, dice: Dice) -> None:
    c = _combat(run.state)
    if not c.queue:
        raise RuleViolation("no hit is waiting for a casualty", rule=R_COMBAT)
    _squad(run.state, cmd.squad)
    if cmd.squad not in candidates(run.state):
        raise cannot_take(cmd.squad, c.queue[0])
    hit = c.queue[0]
    apply_hit(run, dice, cmd.squad, hit.source, hit.source_level, True)
    _process(run, dice)


def _awaiting(state: State) -> Combat:
    c = _combat(state)
    if not c.awaiting:
        raise RuleViolation("the combat is not waiting for press or retreat", rule=R_COMBAT)
    return c


def press(run: Run, dice: Dice) -> None:
    c = _awaiting(run.state)
    run.emit(AttackPressed(side=c.attacker_side))
    _exchange(run, dice)


def retreat(run: Run) -> None:
    """Resolving Combat: retreat, shifting back one square out of combat (a squad with no
    free square out of contact stays where it is)."""
    st = run.state
    c = _awaiting(st)
    eight = _eight(st)
    enemies = [(st.squads[i].x, st.squads[i].y) for i in _alive(st, c.defenders)]
    # The squares as the attacker's side sees them: a squad shifting onto a squad hidden
    # from it meets it, stays where it is and reveals it (decide's move ruling).
    unseen = hidden_at(st, c.attacker_side)
    taken = blocked(st, c.attacker_side)
    moves: list[SquadShift] = []
    met: list[SquadRevealed] = []
    for sid in _alive(st, c.attackers):
        q = st.squads[sid]
        here = (q.x, q.y)
        if not any(adjacent(here, e, eight) for e in enemies):
            continue
        options: list[Pos] = [
            n
            for n in neighbours(here, st.width, st.height, eight)
            if n not in taken and not any(adjacent(n, e, eight) for e in enemies)
        ]
        if not options:
            continue
        best = max(
            options, key=lambda n: (min(distance(n, e, eight) for e in enemies), -n[0], -n[1])
        )
        hidden = unseen.pop(best, None)
        if hidden is not None:
            taken.add(best)  # revealed: seen from now on
            met.append(
                SquadRevealed(
                    squad=hidden.id, side=hidden.side, x=best[0], y=best[1], reason=f"met by {sid}"
                )
            )
            continue
        taken.discard(here)
        taken.add(best)
        moves.append(SquadShift(squad=sid, x=best[0], y=best[1]))
    run.emit(SquadsRetreated(side=c.attacker_side, moves=tuple(moves)))
    for e in met:
        run.emit(e)
    run.emit(CombatEnded(reason="retreated"))


def fire_engine(run: Run, cmd: FireEngine, dice: Dice) -> None:
    """Defenses and siege weapons: an adjacent squad fires an engine (its own combat dice
    drop by one); engines hit enemy engines, barriers and large squads on any 6."""
    st = run.state
    o = st.board.options
    side = st.active_side
    if st.step != "combat":
        raise RuleViolation("siege engines fire during combat resolution", rule=R_SIEGE)
    engine = st.engines.get(cmd.engine)
    if engine is None:
        raise UnknownEntity(f"no siege engine {cmd.engine!r}", rule=R_SIEGE, engine=cmd.engine)
    q = _squad(st, cmd.squad)
    if engine.side != side or q.side != side:
        raise RuleViolation("the engine and the squad must belong to the acting side", rule=R_SIEGE)
    if engine.fired:
        raise RuleViolation(f"{engine.id} has already fired this round", rule=R_SIEGE)
    if not adjacent((q.x, q.y), (engine.x, engine.y), _eight(st)):
        raise RuleViolation("siege weapons are controlled by adjacent squads", rule=R_SIEGE)
    if q.attacked:
        raise RuleViolation(f"{q.id} has already rolled its combat dice", rule=R_SIEGE)
    kind: Literal["engine", "barrier", "squad"]
    if cmd.target in st.engines:
        tgt_pos = (st.engines[cmd.target].x, st.engines[cmd.target].y)
        tgt_side, kind = st.engines[cmd.target].side, "engine"
    elif cmd.target in st.barriers:
        tgt_pos = (st.barriers[cmd.target].x, st.barriers[cmd.target].y)
        tgt_side, kind = st.barriers[cmd.target].side, "barrier"
    elif cmd.target in st.squads:
        t = st.squads[cmd.target]
        if not t.large or t.hidden:
            raise RuleViolation(
                "siege engines may only target enemy siege engines, barriers and large targets",
                rule=R_SIEGE,
            )
        tgt_pos, tgt_side, kind = (t.x, t.y), t.side, "squad"
    else:
        raise UnknownEntity(f"no target {cmd.target!r}", rule=R_SIEGE, target=cmd.target)
    if tgt_side == side:
        raise RuleViolation("siege engines only target the enemy", rule=R_SIEGE)
    if o.engine_range > 0 and distance((engine.x, engine.y), tgt_pos, _eight(st)) > o.engine_range:
        raise RuleViolation("the target is out of the engine's range", rule=R_SIEGE)
    if q.hidden:  # firing is an attack: the squad shows itself (Hero Units: stealth)
        run.emit(SquadRevealed(squad=q.id, side=q.side, x=q.x, y=q.y, reason="fired an engine"))
    ds = dice.roll_many(engine.level, 6, f"siege engine {engine.id}", subject=engine.id)
    hit = any(v >= o.engine_hit_on for v in ds.values)
    assert side is not None
    run.emit(
        EngineFired(
            engine=engine.id,
            side=side,
            squad=q.id,
            target=cmd.target,
            target_kind=kind,
            dice=ds,
            hit=hit,
        )
    )
    if not hit:
        return
    if kind == "engine":
        run.emit(EngineDestroyed(engine=cmd.target, side=tgt_side))
    elif kind == "barrier":
        b = st.barriers[cmd.target]
        bd = dice.roll_many(max(b.level, 0), 6, f"barrier {b.id} holds", subject=b.id)
        holds = any(v >= o.barrier_hold_on for v in bd.values)
        run.emit(
            BarrierHit(
                barrier=b.id,
                side=b.side,
                dice=bd,
                level=b.level - 1 if holds else 0,
                destroyed=not holds,
            )
        )
    else:
        apply_hit(run, dice, cmd.target, engine.id, 0, False)
