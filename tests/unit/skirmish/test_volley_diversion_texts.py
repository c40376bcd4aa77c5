"""A diverted volley's steps as a player reads them (seed 000 "Alterations to Standard
Combat": "Soft Cover & Firing Into Melee"), compared whole: who gives soft cover and how it
was found (or that it was not looked for), who the target is in melee with, the diverted
percentage, the army taking the diverted actions and why, and the diverted volley's label.
The figures are test_profiles_soft_cover.py's (31 successful, 4 critical)."""

from __future__ import annotations

from domain.rulesets.skirmish.resolution.model import Step
from tests.support.skirmish_kit import crossbows, fighters, ready
from tests.unit.skirmish.test_movement import engage
from tests.unit.skirmish.test_profiles_soft_cover import _screened, _shoot

SOFT = "Alterations to Standard Combat / Ranged Attacks / Soft Cover & Firing Into Melee"


def _seen(steps: tuple[Step, ...]) -> list[tuple[str, str, str, str]]:
    return [(s.name, s.shown, s.formula, s.rule) for s in steps]


def _diverted(shares: str, successful: int = 7, critical: int = 1) -> list[tuple[str, ...]]:
    return [
        ("diverted successful die rolls", str(successful), f"31 x {shares}, rounded down", SOFT),
        ("diverted critical die rolls", str(critical), f"4 x {shares}, rounded down", SOFT),
    ]


def test_soft_cover_on_the_line_of_effect_goes_to_the_screen() -> None:
    _, ev = _shoot(_screened())
    assert ev[0].diversion.diverted.label == "diverted to screen"
    assert _seen(ev[0].diversion.steps) == [
        (
            "armies giving soft cover",
            "1",
            "line of effect (centres) from xbows to orcs crosses: screen (100)",
            SOFT,
        ),
        ("armies in melee with the target", "0", "orcs is engaged in melee with: none", SOFT),
        (
            "diverted percentage",
            "25",
            "soft cover True, firing into melee False (Precise Shot False), indirect fire False",
            SOFT,
        ),
        (
            "army taking the diverted actions",
            "100",
            "screen: soft cover, the highest army size",
            SOFT,
        ),
        *_diverted("25%"),
    ]


def test_firing_into_melee_with_soft_cover_not_looked_for_goes_to_the_army_in_melee() -> None:
    s = engage(
        ready(
            north=[fighters(), crossbows("xbows")],
            places={"xbows": (10, 58, "south")},
            options={"soft_cover_from_grid": False},
        )
    )
    _, ev = _shoot(s)
    assert ev[0].diversion.diverted.label == "diverted to fighters"
    assert _seen(ev[0].diversion.steps)[:4] == [
        (
            "armies giving soft cover",
            "0",
            "not looked for (soft_cover_from_grid off): none",
            SOFT,
        ),
        (
            "armies in melee with the target",
            "1",
            "orcs is engaged in melee with: fighters (100)",
            SOFT,
        ),
        (
            "diverted percentage",
            "25",
            "soft cover False, firing into melee True (Precise Shot False), indirect fire False",
            SOFT,
        ),
        (
            "army taking the diverted actions",
            "100",
            "fighters: in melee, the highest army size",
            SOFT,
        ),
    ]
