"""The README is the front door, and the docs/ pages behind it hold together (issue 33, item 5).

Every relative link in README.md, deploy/README.md and docs/*.md names a file that exists,
and a link with a `#fragment` into a Markdown page names one of its headings (as GitHub
makes their anchors).
The README stays short: at most 320 lines, the rest is in docs/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 320

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"`+[^`]*`+")
# [text](target "title") and ![alt](target); the text holds no bracket in these pages.
_INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def pages() -> list[Path]:
    return [
        ROOT / "README.md",
        ROOT / "deploy" / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
    ]


def _prose(text: str) -> list[str]:
    """The lines outside fenced code blocks (links in code are not links)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped,
    spaces made hyphens, a repeated one numbered -1, -2, ..."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for line in _prose(text):
        m = _HEADING.match(line)
        if m is None:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(2).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(text: str) -> list[str]:
    found: list[str] = []
    for line in _prose(text):
        m = _REFERENCE.match(line)
        if m is not None:
            found.append(m.group(1))
            continue
        found.extend(_INLINE.findall(_CODE_SPAN.sub("", line)))
    return found


def broken_links(page: Path) -> list[str]:
    """What is wrong with the relative links of one page (empty when they all resolve)."""
    problems: list[str] = []
    for target in links(page.read_text()):
        if _SCHEME.match(target):
            continue  # http(s), mailto: not this test's business
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            problems.append(f"{target}: no file {resolved}")
            continue
        if (
            fragment
            and resolved.suffix == ".md"
            and fragment.lower() not in anchors(resolved.read_text())
        ):
            problems.append(f"{target}: no heading #{fragment} in {resolved.name}")
    return problems


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_the_pages_link_to_something() -> None:
    """The checker finds the links it should (a regex that matched nothing would pass)."""
    readme = links((ROOT / "README.md").read_text())
    assert "docs/ARCHITECTURE.md" in readme
    assert "docs/OPERATING.md#configuration" in readme


def test_a_broken_link_or_anchor_is_reported(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## A section: here\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[fine](other.md#a-section-here) [self](#page) [web](https://example.org/x)\n"
        "[missing](nowhere.md) [bad anchor](other.md#no-such-section)\n"
        "`[in code](nowhere-either.md)`\n\n```\n[in a block](nor-this.md)\n```\n"
    )
    assert broken_links(page) == [
        f"nowhere.md: no file {tmp_path / 'nowhere.md'}",
        "other.md#no-such-section: no heading #no-such-section in other.md",
    ]


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move the rest to docs/"


def test_the_readme_links_every_docs_page() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in readme, f"README.md does not link docs/{page.name}"
