"""[Standard Actions] Bull Rush, Charge, Grapple and Reload of seed 002 (and [Stamina
Actions] Reload, 3 STA): opposed STR checks (A01, A03), pushes (A34), the charge's
straight last three squares (A36), reload counters.
"""

from __future__ import annotations

import itertools

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.attack_record import single
from domain.rulesets.tactical.commands import Attack, BullRush, Charge, Grapple, Move, Reload
from domain.rulesets.tactical.conditions import can_act
from domain.rulesets.tactical.events import (
    ActionInterrupted,
    CharacterRevealed,
    Moved,
    OpposedCheck,
    Reloaded,
)
from domain.rulesets.tactical.fear import check_steps, check_target
from domain.rulesets.tactical.geometry import adjacent, distance, in_bounds
from domain.rulesets.tactical.hidden import unseen_squares
from domain.rulesets.tactical.model import Char, Condition, Square, State
from domain.rulesets.tactical.modifiers import square_hidden, totally_concealed
from domain.rulesets.tactical.moves import (
    blocked_for,
    budget,
    corner_blockers,
    corner_problem,
    route,
)
from domain.rulesets.tactical.pools import after_loss, gain_condition
from domain.rulesets.tactical.records import Modifier, ResumeAttack
from domain.rulesets.tactical.rules import (
    R_CONDITIONS,
    R_STAMINA_ACTIONS,
    R_STANDARD,
    R_UNSEEN,
    Run,
    char,
    ensure_active,
    need_sta,
)
from domain.rulesets.tactical.walking import walk
from domain.rulesets.tactical.weapons import attack_action, weapon_of

__all__ = ["bull_rush", "charge", "grapple", "reload", "strike"]


def _seen(st: State, c: Char, t: Char, what: str) -> None:
    """A creature `c` cannot see is not a target of `what` by its name: every check after
    this one (reach, path, room for a line) depends on where it stands, so answering them
    would tell `c`'s side its square ([Targeting What You Can't See]; DESIGN)."""
    if totally_concealed(st, c, t):
        raise RuleViolation(
            f"{t.id} has total concealment: perceive it first (no {what} at what you cannot see)",
            rule=R_UNSEEN,
        )


def _standard(run: Run, c: Char) -> None:
    ensure_active(run.state, c)
    why = can_act(c)
    if why is not None:
        raise RuleViolation(why, rule=R_STANDARD)
    if c.standard_used:
        raise RuleViolation(f"{c.id} has used its standard action this turn", rule=R_STANDARD)


def _reach(run: Run, c: Char, t: Char) -> None:
    items = run.state.board.items
    reach = max(
        [1, *(items[i].reach for i in (c.main_hand, c.off_hand) if i in items)]  # A65
    )
    if distance(c.pos, t.pos, run.state.options.metric) > reach:
        raise RuleViolation(f"{t.id} is not within reach", rule=R_STANDARD)


def _opposed(
    run: Run, dice: Dice, c: Char, t: Char, action: str, mods: tuple[Modifier, ...] = ()
) -> bool:
    """Opposed STR checks: d12 + STR each; the initiator must beat the defender (A03)."""
    o = run.state.options
    for _ in range(20):
        mine = dice.roll(o.check_die, f"{action} check of {c.id}", subject=c.id)
        theirs = dice.roll(o.check_die, f"{action} check of {t.id}", subject=t.id)
        total = mine.value + c.stats.STR + sum(m.value for m in mods)
        other = theirs.value + t.stats.STR
        if total == other and o.opposed_tie == "reroll":
            continue
        ok = total > other
        run.emit(
            OpposedCheck(
                action=action,  # type: ignore[arg-type]
                character=c.id,
                target=t.id,
                die=mine,
                bonus=c.stats.STR,
                target_die=theirs,
                target_bonus=t.stats.STR,
                total=total,
                target_total=other,
                success=ok,
                modifiers=mods,
            )
        )
        return ok
    return False


def grapple(run: Run, cmd: Grapple, dice: Dice) -> None:
    c = char(run.state, cmd.character)
    _standard(run, c)
    t = char(run.state, cmd.target)
    if t.id == c.id or t.dead:
        raise RuleViolation("grapple another creature", rule=R_STANDARD)
    _seen(run.state, c, t, "grapple")
    check_target(run.state, c, t.id, "grapple")  # [Conditions] Frightened (A31)
    _reach(run, c, t)
    if _opposed(run, dice, c, t, "grapple"):
        gain_condition(
            run,
            t.id,
            Condition(name="grappled", source=c.id),
            f"grappled by {c.id}",
            R_CONDITIONS,
        )


def _push(run: Run, c: Char, t: Char, n: int) -> tuple[list[Square], Square | None]:
    """A34: straight away from the pusher; the push stops at a blocked square (returned;
    None when the push went its full length or stopped at a corner it may not cut)."""
    dx = (t.x > c.x) - (t.x < c.x)
    dy = (t.y > c.y) - (t.y < c.y)
    st = run.state
    blocked = blocked_for(st, t) | set(st.occupied)
    pinch = corner_blockers(st, blocked_for(st, t))
    path: list[Square] = []
    here = t.pos
    for _ in range(n):
        nxt = (here[0] + dx, here[1] + dy)
        if nxt in blocked or not in_bounds(nxt, st.board.width, st.board.height):
            return path, nxt
        if corner_problem(here, nxt, pinch, st.options.corner_rule) is not None:
            return path, None  # A47: no diagonal push through a pinch (corner_rule)
        path.append(nxt)
        here = nxt
    return path, None


def _rush(run: Run, dice: Dice, c: Char, t: Char, push: int, follow: bool, bonus: int) -> None:
    mods = (
        (Modifier(kind="charge", value=bonus, reason="charge: +2 to the check", rule=R_STANDARD),)
        if bonus
        else ()
    )
    if not _opposed(run, dice, c, t, "bull_rush", mods):
        return
    start = t.pos
    path, stopper = _push(run, c, t, push)
    if path:
        run.emit(Moved(character=t.id, mode="push", path=tuple(path), cost=0, move_action=False))
    if stopper is not None and stopper in unseen_squares(run.state, c):
        hid = run.state.occupied[stopper]  # the push met a creature the pusher cannot see
        run.emit(
            CharacterRevealed(
                character=hid,
                square=stopper,
                by=c.id,
                reason=f"{t.id}, pushed by {c.id}, meets {hid}, unseen in {list(stopper)}",
                rule=R_STANDARD,
                glimpse_ends_with_turn=True,  # §4 (0.3.0)
            )
        )
    if push == 1:
        gain_condition(run, t.id, Condition(name="prone"), f"bull rush by {c.id}", R_STANDARD)
    me = run.state.chars[c.id]
    # checked before the first die by bull_rush (_can_follow) and charge; a charger held
    # during its charge's window (no refusal possible after the window's answer) stays put
    if follow and path and not (me.has("immobilized") or me.has("grappled")):
        run.emit(Moved(character=c.id, mode="shift", path=(start,), cost=1, move_action=False))


def bull_rush(run: Run, cmd: BullRush, dice: Dice) -> None:
    c = char(run.state, cmd.character)
    _standard(run, c)
    t = char(run.state, cmd.target)
    if t.id == c.id or t.dead:
        raise RuleViolation("bull rush another creature", rule=R_STANDARD)
    _seen(run.state, c, t, "bull rush")
    check_target(run.state, c, t.id, "bull rush")  # [Conditions] Frightened (A31)
    if cmd.follow:  # the follow-up shift is movement it performs: not towards its fear
        for name in ("immobilized", "grappled"):  # [Conditions]: before any die (A03)
            if c.has(name):
                raise RuleViolation(f"{c.id} is {name}: it cannot follow", rule=R_CONDITIONS)
        check_steps(run.state, c, [t.pos])
    _reach(run, c, t)
    _rush(run, dice, c, t, cmd.push, cmd.follow, 0)


def reload(run: Run, cmd: Reload, dice: Dice) -> None:
    """[Reload]: once a round as a standard action and once (3 STA) as a stamina one (A15)."""
    st = run.state
    c = char(st, cmd.character)
    ensure_active(st, c)
    why = can_act(c)
    if why is not None:
        raise RuleViolation(why, rule=R_STANDARD)
    if cmd.item not in (c.main_hand, c.off_hand):
        raise RuleViolation(f"{c.id} does not hold {cmd.item}", rule=R_STANDARD)
    left = c.reload_left.get(cmd.item, 0)
    if left <= 0:
        raise RuleViolation(f"{cmd.item} needs no reload", rule=R_STANDARD)
    done = c.reloads_standard + c.reloads_stamina
    if done >= st.options.reloads_per_round:
        raise RuleViolation("no more reload actions this round", rule=R_STAMINA_ACTIONS)
    if not c.standard_used and c.reloads_standard == 0:
        run.emit(Reloaded(character=c.id, item=cmd.item, left=left - 1, action="standard"))
        return
    if c.reloads_stamina:
        raise RuleViolation("Reload (3 STA) once a round", rule=R_STAMINA_ACTIONS)
    if c.has("dazed"):
        raise RuleViolation(f"{c.id} is dazed: no stamina actions", rule=R_CONDITIONS)
    need_sta(st, c, 3, "Reload")
    run.emit(Reloaded(character=c.id, item=cmd.item, left=left - 1, action="stamina", sta_spent=3))
    after_loss(run, c.id, "STA", c.STA.cur, "reload")


def charge(run: Run, cmd: Charge, dice: Dice) -> None:
    """[Charge]: at least 3 squares from the start (A36), the last 3 in one direction, the
    target in the next square along it; the turn's move action and its standard action."""
    st = run.state
    c = char(st, cmd.character)
    _standard(run, c)
    sta = 0
    if c.moves > 0:
        if st.options.charge_move != "stamina_allowed" or c.moves >= 2:
            raise RuleViolation("a charge consumes the free move, already used", rule=R_STANDARD)
        sta = 6  # A36 option: the extra move action (6 STA)
        need_sta(st, c, sta, "a charge's extra move")
    for name in ("immobilized", "grappled", "prone"):
        if c.has(name):
            raise RuleViolation(f"{c.id} is {name}: no charge", rule=R_CONDITIONS)
    t = char(st, cmd.target)
    _seen(st, c, t, "charge")
    check_target(st, c, t.id, "charge")  # [Conditions] Frightened (A31)
    goal = (cmd.to[0], cmd.to[1])
    blocked = blocked_for(st, c)
    if goal in st.occupied and goal != c.pos and goal not in unseen_squares(st, c):
        raise RuleViolation(f"{list(goal)} is occupied", rule=R_STANDARD)
    given = cmd.path
    if given is None:  # the last 3 squares straight at the target, reached the shortest way
        dx = (t.x > goal[0]) - (t.x < goal[0])
        dy = (t.y > goal[1]) - (t.y < goal[1])
        entry = (goal[0] - 3 * dx, goal[1] - 3 * dy)
        head: list[Square] = []
        if entry != c.pos:
            if not in_bounds(entry, st.board.width, st.board.height):
                raise RuleViolation("no room for a 3-square line to the target", rule=R_STANDARD)
            to_entry = Move(character=c.id, mode=cmd.mode, to=entry)
            head = route(st, c, entry, to_entry, blocked, budget(c, cmd.mode))
        tail = [(entry[0] + k * dx, entry[1] + k * dy) for k in (1, 2, 3)]
        given = tuple((q[0], q[1]) for q in (*head, *tail))
    as_move = Move(character=c.id, mode=cmd.mode, to=cmd.to, path=given)
    path = route(st, c, goal, as_move, blocked, budget(c, cmd.mode))
    check_steps(st, c, path)  # [Conditions] Frightened: no step towards its source
    squares = [c.pos, *path]
    if distance(c.pos, goal, st.options.metric) < 3 and st.options.charge_distance == "from_start":
        raise RuleViolation("a charge moves at least 3 squares from the start", rule=R_STANDARD)
    if len(path) < 3:
        raise RuleViolation("a charge moves at least 3 squares", rule=R_STANDARD)
    last = squares[-4:]
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(last)}
    if len(steps) != 1:
        raise RuleViolation("the last 3 squares of a charge are in a line", rule=R_STANDARD)
    (d,) = steps
    if t.pos != (goal[0] + d[0], goal[1] + d[1]):
        raise RuleViolation(
            "the target must be in the next square along the charge", rule=R_STANDARD
        )
    weapon = cmd.weapon or c.main_hand
    if not cmd.bull_rush and weapon is None:
        raise RuleViolation("a charge attack needs a melee weapon", rule=R_STANDARD)
    # checked now, not only at the strike: a charge that provokes an opportunity attack
    # strikes after the window, where this refusal would refuse every answer to it
    if not cmd.bull_rush and weapon is not None and weapon_of(st, c, weapon).kind != "melee":
        raise RuleViolation("a charge ends in a melee attack", rule=R_STANDARD)
    # an invisible charger's way is its side's alone, as a Move's (moves.move) and as the
    # rest of this charge after a window (resume._walk_on): its strike names only where
    # it ends, not where it came from (DESIGN: a hidden unit's moves are never readable)
    # (0.5.0: a glimpsed one, §4, is seen moving, as a Move's; not when it pays the charge's
    # STA, `charge_move` stamina_allowed, which this Moved carries: RULINGS). A charge at an
    # invisible foe it perceived is its side's too (0.5.0): its last three steps run
    # straight at the foe, so its way would tell the others where the foe stands
    unseen = square_hidden(c) or (c.has("invisible") and sta) or square_hidden(t)
    hidden = c.side if unseen else None
    first = Moved(character=c.id, mode=cmd.mode, path=(), cost=0, sta_spent=sta, hidden_side=hidden)
    then = ResumeAttack(
        weapon=weapon or "",
        target=t.id,
        charge=True,
        bull_rush=cmd.bull_rush,
        push=cmd.push,
        follow=cmd.follow,
    )
    due = walk(run, first, path, (), then)
    if due is not None:  # reached its end now (not stopped, no window open): it strikes
        strike(run, c.id, due, dice)


def strike(run: Run, cid: str, then: ResumeAttack, dice: Dice) -> None:
    """The end of a charge: a melee attack at +2, or a bull rush at +2 to the check."""
    st = run.state
    c = st.chars[cid]
    t = st.chars.get(then.target or "")
    if t is None or t.down:
        gone: str | None = "the target is gone"
    elif not adjacent(c.pos, t.pos):
        gone = f"{t.id} is no longer next along the charge"
    else:
        gone = None
    if gone is not None or t is None:  # the charge ends without its strike
        run.emit(
            ActionInterrupted(
                character=c.id, action="charge", square=c.pos, reason=gone or "", rule=R_STANDARD
            )
        )
        return
    if then.bull_rush:
        _rush(run, dice, c, t, then.push, then.follow, 2)
        return
    w = weapon_of(st, c, then.weapon)
    if w.kind != "melee":
        raise RuleViolation("a charge ends in a melee attack", rule=R_STANDARD)
    attack_action(st, c, w)
    plus = Modifier(kind="charge", value=2, reason="charge", rule=R_STANDARD)
    cmd = Attack(character=c.id, weapon=w.id, target=t.id)
    single(run, cmd, dice, c, w, "charge", 0, t, t.pos, unseen=False, extra=(plus,))
