"""Exact arithmetic for the skirmish statistical resolution (seed 000, "Important Notes": Rounding).

Every figure is an integer or an exact rational (`fractions.Fraction`); no float ever enters,
so identical inputs give identical results on every machine. Rational figures cross the
module boundary as `Exact` Structs (numerator/denominator), which msgspec can encode.

Rounding vocabulary of the seed text:

- "rounded normally": half away from zero (`round_half_away`: 6.5 -> 7, 2.5 -> 3, -2.5 -> -3);
  Python's `round` (half to even) is never used.
- "rounded down": floor (`floor`).
- the partial benefit/penalty modifier truncates toward zero (`truncate`: -6.5 -> -6), as the
  seed's example does.
- "not rounded": kept exact; shown with 2 decimals (`show`), the seed's "2 decimal places is
  acceptable".

`PI` is a 30-digit rational approximation of pi (error < 1e-30): far below anything the
"rounded normally" of an affected area could notice for any radius a battle can have.
"""

from __future__ import annotations

from fractions import Fraction

import msgspec

__all__ = [
    "PI",
    "Exact",
    "Number",
    "exact",
    "floor",
    "frac",
    "round_half_away",
    "show",
    "truncate",
]

Number = int | Fraction

PI = Fraction(3141592653589793238462643383279, 10**30)


class Exact(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An exact rational figure: `num / den` (den > 0, lowest terms). `Exact(num=7)` is 7."""

    num: int
    den: int = 1

    @property
    def value(self) -> Fraction:
        """The figure as a Fraction."""
        return Fraction(self.num, self.den)

    def shown(self) -> str:
        """The figure to 2 decimal places, rounded normally ("Important Notes": Rounding)."""
        return show(self.value)


def _parts(x: Number | Exact) -> tuple[int, int]:
    if isinstance(x, int):
        return x, 1
    if isinstance(x, Exact):
        return x.num, x.den
    return x.numerator, x.denominator


def exact(x: Number) -> Exact:
    """Wrap an int or Fraction as an `Exact` ("Important Notes": Rounding - kept exact)."""
    n, d = _parts(x)
    return Exact(num=n, den=d)


def frac(x: Number | Exact) -> Fraction:
    """The Fraction of an int, Fraction or `Exact` ("Important Notes": Rounding)."""
    if isinstance(x, Fraction):
        return x
    n, d = _parts(x)
    return Fraction(n, d)


def floor(x: Number) -> int:
    """ "Rounded down": the greatest integer not above x."""
    n, d = _parts(x)
    return n // d


def truncate(x: Number) -> int:
    """Toward zero: -6.5 -> -6, 6.5 -> 6 (the partial benefit/penalty example)."""
    n, d = _parts(x)
    return n // d if n >= 0 else -(-n // d)


def round_half_away(x: Number) -> int:
    """ "Rounded normally": to the nearest integer, halves away from zero (2.5 -> 3, -2.5 -> -3)."""
    n, d = _parts(x)
    if n < 0:
        return -((-2 * n + d) // (2 * d))
    return (2 * n + d) // (2 * d)


def show(x: Number | Exact, places: int = 2) -> str:
    """x to `places` decimals, rounded normally: Fraction(748, 78) -> "9.59", 8 -> "8.00"."""
    n, d = _parts(x)
    scale = 10**places
    m = abs(n) * scale
    r = (2 * m + d) // (2 * d)
    sign = "-" if n < 0 and r else ""
    whole, part = divmod(r, scale)
    if places == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{part:0{places}d}"
