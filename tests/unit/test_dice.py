"""Dice: the server's verifiable dice (fairness, documented derivation) and supplied dice."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter

import msgspec
import pytest

from domain.dice import Roll, ServerDice, SuppliedDice, commitment, derive_value
from domain.errors import DiceError

SEED = bytes.fromhex("6b1f0c2e9d4a7785c3e0f1a2b4d6e8f0112233445566778899aabbccddeeff00")

# -- (a) fairness: chi-square goodness of fit --------------------------------------------------

try:  # pragma: no cover - scipy is optional
    from scipy.stats import chi2 as _chi2

    def critical_value(df: int) -> float:
        return float(_chi2.ppf(0.999, df))
except ImportError:  # pragma: no cover
    # Upper 0.001 points of the chi-square distribution (standard tables, e.g. NIST/SEMATECH
    # e-Handbook 1.3.6.7.4); each checked against the regularized incomplete gamma function.
    _TABLE = {5: 20.515, 19: 43.820, 99: 148.230}

    def critical_value(df: int) -> float:
        return _TABLE[df]


def chi_square(values: list[int], sides: int) -> float:
    counts = Counter(values)
    assert set(counts) <= set(range(1, sides + 1)), "a value outside 1..sides"
    expected = len(values) / sides
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, sides + 1))


def test_critical_values() -> None:
    assert critical_value(5) == pytest.approx(20.515, abs=1e-3)
    assert critical_value(19) == pytest.approx(43.820, abs=1e-3)
    assert critical_value(99) == pytest.approx(148.230, abs=1e-3)


def test_60000_server_d6_are_fair() -> None:
    values: list[int] = []
    for version in range(1, 1001):
        dice = ServerDice(seed=SEED, epoch=1, battle_id="fair-battle", version=version)
        values += dice.roll_many(60, 6, "fairness").values
    assert len(values) == 60_000
    assert set(values) == {1, 2, 3, 4, 5, 6}
    assert chi_square(values, 6) < critical_value(5) == pytest.approx(20.515, abs=1e-3)


@pytest.mark.parametrize(("sides", "draws"), [(20, 20_000), (100, 50_000)])
def test_server_d20_and_d100_are_fair(sides: int, draws: int) -> None:
    per_version = 50
    values = [
        derive_value(SEED, "fair-battle", version, index, "", sides)
        for version in range(1, draws // per_version + 1)
        for index in range(per_version)
    ]
    assert len(values) == draws
    assert set(values) == set(range(1, sides + 1))
    assert chi_square(values, sides) < critical_value(sides - 1)


def test_the_fairness_check_has_teeth() -> None:
    """A die that turns 5 % of its sixes into ones fails the same test at the same size."""
    fair = [derive_value(SEED, "b", v, i, "", 6) for v in range(1, 1001) for i in range(60)]
    biased = [1 if x == 6 and n % 20 == 0 else x for n, x in enumerate(fair)]
    assert chi_square(fair, 6) < critical_value(5) < chi_square(biased, 6)
    # and a d6 that never shows a six fails by a mile
    assert chi_square([min(x, 5) for x in fair], 6) > 1000


def test_no_two_roll_counters_give_the_same_stream() -> None:
    """(version, index) pairs are independent: the stream is not constant or repeating."""
    rows = [
        tuple(derive_value(SEED, "b", version, index, "", 10**9) for index in range(8))
        for version in range(1, 201)
    ]
    assert len(set(rows)) == 200
    assert len({v for row in rows for v in row}) == 1600


# -- (b) independent recomputation from the docstring ------------------------------------------


def reference_die(
    seed: bytes, battle_id: str, version: int, index: int, client_seed: str, sides: int
) -> tuple[int, int]:
    """(value, k) straight from the module docstring of domain/dice.py."""
    bound = (2**64 // sides) * sides
    for k in itertools.count():
        msg = f"{battle_id}|{version}|{index}|{client_seed}|{k}".encode()
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big")
        if x < bound:
            return x % sides + 1, k
    raise AssertionError("unreachable")


SIDES = [1, 2, 3, 6, 7, 20, 100, 2**32 + 7, 3 * 2**62, 2**63 + 1, 2**64]


@pytest.mark.parametrize("sides", SIDES)
@pytest.mark.parametrize("client_seed", ["", "table-7", "ünïcode|with|bars"])
def test_server_dice_equal_the_documented_derivation(sides: int, client_seed: str) -> None:
    for seed, battle_id in [(SEED, "b-1"), (b"", "b-1"), (b"\x00" * 64 + b"x", "other battle")]:
        for version in (1, 2, 17, 10**6):
            dice = ServerDice(
                seed=seed, epoch=3, battle_id=battle_id, version=version, client_seed=client_seed
            )
            first = dice.roll(sides, "first")
            got = dice.roll_many(5, sides, "check")
            assert (first.version, first.index, got.version, got.index) == (version, 0, version, 1)
            want = [
                reference_die(seed, battle_id, version, got.index + i, client_seed, sides)[0]
                for i in range(5)
            ]
            assert list(got.values) == want
            assert first.values == (
                reference_die(seed, battle_id, version, 0, client_seed, sides)[0],
            )
            assert all(1 <= v <= sides for v in got.values)


def test_rejection_sampling_is_exercised_and_matches() -> None:
    """With 2**63 + 1 sides about half of all first draws are rejected (x >= 2**63 + 1)."""
    sides = 2**63 + 1
    rejected = []
    for version in range(1, 41):
        for index in range(5):
            value, k = reference_die(SEED, "b-1", version, index, "cs", sides)
            assert derive_value(SEED, "b-1", version, index, "cs", sides) == value
            if k > 0:
                rejected.append((version, index, value, k))
    assert 50 <= len(rejected) <= 150  # ~100 of 200 expected
    assert any(k >= 2 for *_, k in rejected)
    # in a rejected case the first draw would have given another value: the loop matters
    version, index, value, _ = rejected[0]
    msg0 = f"b-1|{version}|{index}|cs|0".encode()
    x0 = int.from_bytes(hmac.new(SEED, msg0, hashlib.sha256).digest()[:8], "big")
    assert x0 >= sides
    assert x0 % sides + 1 != value


def test_rejection_with_three_quarters_acceptance() -> None:
    sides = 3 * 2**62  # bound = 3 * 2**62: a quarter of draws is rejected
    ks = [reference_die(SEED, "b", v, 0, "", sides)[1] for v in range(1, 401)]
    assert 0 < sum(k > 0 for k in ks) < 200
    assert all(
        derive_value(SEED, "b", v, 0, "", sides) == reference_die(SEED, "b", v, 0, "", sides)[0]
        for v in range(1, 401)
    )


@pytest.mark.parametrize("sides", [0, -6, 2**64 + 1, 2**65])
def test_impossible_dice_are_refused(sides: int) -> None:
    with pytest.raises(ValueError):
        derive_value(SEED, "b", 1, 0, "", sides)
    with pytest.raises(ValueError):
        ServerDice(seed=SEED, epoch=1, battle_id="b", version=1).roll(sides, "x")


def test_a_one_sided_die_is_one() -> None:
    dice = ServerDice(seed=SEED, epoch=1, battle_id="b", version=1)
    assert dice.roll_many(10, 1, "x").values == (1,) * 10


# -- (c) client seed and commitment ------------------------------------------------------------


def test_client_seed_changes_the_dice() -> None:
    def values(client_seed: str) -> list[int]:
        dice = ServerDice(seed=SEED, epoch=1, battle_id="b", version=5, client_seed=client_seed)
        return list(dice.roll_many(200, 10**6, "x").values)

    plain, seeded, other = values(""), values("alice"), values("alice ")
    assert values("alice") == seeded  # deterministic
    assert sum(a != b for a, b in zip(plain, seeded, strict=True)) >= 195
    assert sum(a != b for a, b in zip(seeded, other, strict=True)) >= 195


@pytest.mark.parametrize(
    "change",
    [
        {"seed": SEED[:-1] + b"\x01"},
        {"battle_id": "b2"},
        {"version": 6},
        {"client_seed": "c"},
    ],
)
def test_every_input_changes_the_dice(change: dict[str, object]) -> None:
    base = {"seed": SEED, "battle_id": "b", "version": 5, "client_seed": ""}
    a = ServerDice(epoch=1, **base).roll_many(50, 10**6, "x")  # type: ignore[arg-type]
    b = ServerDice(epoch=1, **{**base, **change}).roll_many(50, 10**6, "x")  # type: ignore[arg-type]
    assert sum(x != y for x, y in zip(a.values, b.values, strict=True)) >= 45


def test_the_epoch_is_recorded_but_does_not_change_the_dice() -> None:
    a = ServerDice(seed=SEED, epoch=1, battle_id="b", version=5).roll_many(20, 6, "x")
    b = ServerDice(seed=SEED, epoch=2, battle_id="b", version=5).roll_many(20, 6, "x")
    assert a.values == b.values
    assert (a.epoch, b.epoch) == (1, 2)


@pytest.mark.parametrize("seed", [b"", b"\x00", SEED, bytes(range(256))])
def test_commitment_is_the_sha256_of_the_seed(seed: bytes) -> None:
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64
    assert commitment(seed) != commitment(seed + b"\x00")


# -- Roll records ------------------------------------------------------------------------------


def test_server_dice_record_where_each_die_came_from() -> None:
    dice = ServerDice(seed=SEED, epoch=4, battle_id="b", version=12, client_seed="cs")
    first = dice.roll(6, "to hit")
    rest = dice.roll_many(3, 20, "damage")

    assert dice.drawn == [first, rest]
    assert first == Roll(
        sides=6,
        values=(derive_value(SEED, "b", 12, 0, "cs", 6),),
        purpose="to hit",
        source="server",
        epoch=4,
        version=12,
        index=0,
        client_seed="cs",
    )
    assert first.value == first.values[0]
    assert (rest.index, rest.version, rest.epoch, rest.sides, rest.purpose) == (
        1,
        12,
        4,
        20,
        "damage",
    )
    assert list(rest.values) == [derive_value(SEED, "b", 12, i, "cs", 20) for i in (1, 2, 3)]
    encoded = msgspec.json.decode(msgspec.json.encode(first))
    assert encoded["kind"] == "roll"
    assert encoded["source"] == "server"
    assert msgspec.json.decode(msgspec.json.encode(first), type=Roll) == first
    assert msgspec.json.decode(msgspec.json.encode(rest), type=Roll) == rest


def test_server_roll_counters_never_repeat_within_a_command() -> None:
    dice = ServerDice(seed=SEED, epoch=1, battle_id="b", version=3)
    rolls = [
        dice.roll_many(2, 6, "a"),
        dice.roll_many(0, 6, "none"),
        dice.roll(20, "b"),
        dice.roll_many(4, 6, "c"),
    ]
    assert [(r.index, len(r.values)) for r in rolls] == [(0, 2), (2, 0), (2, 1), (3, 4)]
    counters = []
    for r in rolls:
        assert r.index is not None
        counters += [(r.version, r.index + i) for i in range(len(r.values))]
    assert counters == [(3, i) for i in range(7)]
    assert dice.drawn == rolls
    with pytest.raises(ValueError):
        dice.roll_many(-1, 6, "x")


def test_supplied_dice_record_their_source() -> None:
    dice = SuppliedDice([4, 17])
    a = dice.roll(6, "to hit")
    b = dice.roll(20, "save")
    assert a == Roll(sides=6, values=(4,), purpose="to hit", source="client")
    assert b.source == "client" and b.value == 17 and b.sides == 20
    assert (a.epoch, a.version, a.index, a.client_seed) == (None, None, None, "")
    assert dice.drawn == [a, b]
    dice.finish()


# -- (d) supplied dice -------------------------------------------------------------------------


def test_supplied_dice_are_consumed_in_order() -> None:
    supplied = [3, 1, 6, 2, 5, 4]
    dice = SuppliedDice(supplied)
    got = [dice.roll(6, "a").value, *dice.roll_many(4, 6, "b").values]
    empty = dice.roll_many(0, 6, "none")
    got.append(dice.roll(6, "c").value)
    assert got == supplied
    assert empty.values == () and empty.source == "client"
    assert [(d.purpose, len(d.values)) for d in dice.drawn] == [
        ("a", 1),
        ("b", 4),
        ("none", 0),
        ("c", 1),
    ]
    dice.finish()


@pytest.mark.parametrize(("values", "position"), [([0], 0), ([7], 0), ([2, 5, 9], 2), ([1, -1], 1)])
def test_an_out_of_range_die_names_its_position(values: list[int], position: int) -> None:
    dice = SuppliedDice(values)
    with pytest.raises(DiceError) as info:
        dice.roll_many(len(values), 6, "to hit")
    assert info.value.context["position"] == position
    assert f"#{position + 1}" in info.value.reason
    assert "d6" in info.value.reason
    assert info.value.code == "dice-error"
    assert dice.drawn == [] and dice.used == 0  # the roll with the bad die was not taken


def test_too_few_supplied_dice_raise() -> None:
    dice = SuppliedDice([2, 3])
    dice.roll_many(2, 6, "x")
    with pytest.raises(DiceError) as info:
        dice.roll(8, "damage")
    assert info.value.context["supplied"] == 2
    assert "d8" in info.value.reason
    assert "damage" in info.value.reason

    with pytest.raises(DiceError):
        SuppliedDice([]).roll(6, "x")


def test_surplus_supplied_dice_are_detected_by_finish() -> None:
    dice = SuppliedDice([1, 2, 3])
    dice.roll_many(2, 6, "x")
    with pytest.raises(DiceError) as info:
        dice.finish()
    assert info.value.context == {"supplied": 3, "used": 2}

    unused = SuppliedDice([5])
    with pytest.raises(DiceError):
        unused.finish()

    SuppliedDice([]).finish()  # nothing supplied, nothing used: fine
