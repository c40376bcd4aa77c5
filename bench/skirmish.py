"""`python -m bench.skirmish`: the cost of a statistical volley does not grow with army size.

Resolves a ranged volley (heavy crossbows: actions, targets, concentration, success split,
ADV) and applies its damage (`apply_phase_damage`) for armies of 100 and of 100,000 soldiers,
many times each, and prints the time per volley and the ratio of the two. Not a test: it
reports, it does not fail on a slow machine.
"""

from __future__ import annotations

import time

from domain.rulesets.skirmish.resolution import (
    ActionSpec,
    CriticalInputs,
    DamageOption,
    DamageRoll,
    DiceTerm,
    ResolutionOptions,
    SuccessInputs,
    TargetArmy,
    Targeting,
    apply_phase_damage,
    exact,
    resolve_action,
)

__all__ = ["main", "volley_us"]

REPEATS = 2000
ROUNDS = 5


def _armies(n: int) -> tuple[ActionSpec, TargetArmy]:
    action = ActionSpec(
        acting_soldiers=n,
        full_rounds_per_action=2,
        targeting=Targeting(chosen_targets=max(1, n // 4)),
        roll=SuccessInputs(
            roll_result=15, dc=13, miss_chance=20, critical=CriticalInputs(threat_low=19)
        ),
        damage=DamageOption(
            on_success=DamageRoll(terms=(DiceTerm(damage_type="piercing", count=1, sides=10),)),
            critical_multiplier=2,
        ),
        label=f"{n} crossbows",
    )
    target = TargetArmy(
        army_size=n,
        maximum_army_size=n,
        total_army_hp=9 * n,
        maximum_soldier_hp=exact(9),
        constitution_score=13,
        damage_reduction=1,
    )
    return action, target


def volley_us(n: int, repeats: int = REPEATS, rounds: int = ROUNDS) -> float:
    """Best-of-`rounds` mean time of one volley (resolve + apply), in microseconds."""
    action, target = _armies(n)
    options = ResolutionOptions()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            result = resolve_action(action, target, options)
            apply_phase_damage(target, (result.volley,), (), options)
        best = min(best, (time.perf_counter() - start) / repeats)
    return best * 1e6


def main() -> None:
    """Print the per-volley time for 100 and 100,000 soldiers and their ratio."""
    volley_us(100, repeats=200, rounds=1)  # warm-up
    small = volley_us(100)
    big = volley_us(100_000)
    print("skirmish statistical volley (resolve_action + apply_phase_damage)")
    print(f"  army of 100 soldiers:     {small:8.1f} us/volley")
    print(f"  army of 100,000 soldiers: {big:8.1f} us/volley")
    print(f"  ratio 100,000 / 100:      {big / small:8.2f}  (target: about 1, no growth)")


if __name__ == "__main__":
    main()
