"""The reference table page (`/table`) as the browser test drives it: one `TablePage` per
browser context (the referee's, each player's), read from its DOM and played by clicks and
typed dice only. The choice of what to click comes from the table policies of
tests/support/table_policies (the same as the HTTP play-through), fed with the prompts the
page's own key reads; the page must show those very prompts as cards."""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import parse_qs, urlparse

__all__ = ["TablePage", "fragment_of"]

# Whether the page is done with what it was asked: no request under way, and the dice
# form (if a die is asked for) shown.
_STATE = """() => ({
  busy: document.body.dataset.busy === "true",
  die: !document.getElementById("dice").hidden,
  version: Number(document.body.dataset.version || 0),
  error: document.getElementById("error").hidden ? null
    : document.getElementById("error").textContent,
})"""

_CARDS = """() => [...document.querySelectorAll("#awaiting .prompt")].map((p) => ({
  id: p.dataset.prompt, waiting: p.classList.contains("waiting"),
  commands: [...p.querySelectorAll("button[data-command]")].map((b) => b.dataset.command),
}))"""


def fragment_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(url).fragment).items()}


class TablePage:
    """One browser context's page of the table."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.dice_typed = 0
        self.faces: list[int] = []  # every face typed, in order
        self.clicked = 0  # commands given by a card's buttons (and a square of reach)
        self.written = 0  # commands written in a card's JSON editor

    def state(self) -> dict[str, Any]:
        return dict(self.page.evaluate(_STATE))

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(
            "(v) => Number(document.body.dataset.version) === v"
            " && document.body.dataset.busy !== 'true'",
            arg=version,
            timeout=20_000,
        )

    def cards(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate(_CARDS))

    def settle(self) -> dict[str, Any]:
        """Type each die the page asks for (a random face) until the command is done."""
        for _ in range(200):
            self.page.wait_for_function(
                "() => document.body.dataset.busy !== 'true'"
                " || !document.getElementById('dice').hidden",
                timeout=20_000,
            )
            st = self.state()
            if not st["die"]:
                return st
            form = self.page.locator("#dice")
            sides, count = (
                int(form.get_attribute("data-sides")),
                int(form.get_attribute("data-count")),
            )
            rolled = [self.rng.randint(1, sides) for _ in range(count)]
            self.faces += rolled
            self.page.fill("#die-value", " ".join(map(str, rolled)))
            self.page.click("#die-roll")
            self.dice_typed += 1
        raise AssertionError("the page kept asking for dice")

    def answer(self, prompt: Any, command: dict[str, Any], move: tuple[int, int] | None) -> None:
        """Answer `prompt` with `command` as a person would: its choices picked in the selects,
        the type's button clicked, and for a move the square clicked on the grid; a command
        with a free value the prompt does not list (a phased outcome's damage) written as
        JSON in the card's editor instead."""
        if not self.buttons_can(prompt, command, move):
            self.write(prompt.id, command)
            return
        self.clicked += 1
        card = self.page.locator(f"#awaiting .prompt[data-prompt='{prompt.id}']")
        for select in card.locator("select[data-field]").all():
            field = select.get_attribute("data-field")
            if field in command:
                select.select_option(self.option(prompt, field, command[field]))
        card.locator(f"button[data-command='{command['type']}']").click()
        if move is not None:
            square = self.page.locator(f"#grid rect.reach[data-x='{move[0]}'][data-y='{move[1]}']")
            square.click()

    @staticmethod
    def option(prompt: Any, field: str, value: Any) -> str:
        """The option of the choice `field` that gives `value`: a list's first value, or the
        whole list joined where the prompt lists it so (a phased Slip's effects, "0,2")."""
        if isinstance(value, list) and value and isinstance(value[0], list):
            value = value[0]  # a wall's sections: the one section, a square
        if isinstance(value, list):
            joined = ",".join(str(v) for v in value)
            listed = [str(v) for v in prompt.choices.get(field, [])]
            if joined in listed or (value and all(isinstance(v, int) for v in value)):
                return joined  # a square's choice reads "x,y"
            value = value[0]
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    @staticmethod
    def buttons_can(prompt: Any, command: dict[str, Any], move: tuple[int, int] | None) -> bool:
        """Whether the card's selects and buttons give `command`: each field is the prompt's
        subject or side, one of its listed choices, or the square of a move."""
        for field, value in command.items():
            if field == "type" or value in (prompt.subject, prompt.side):
                continue
            if move is not None and field in ("to", "x", "y"):
                continue
            listed = [str(v) for v in prompt.choices.get(field, [])]
            if value == [] or TablePage.option(prompt, field, value) not in listed:
                return False
        return True

    def write(self, prompt_id: str, command: dict[str, Any]) -> None:
        """Send `command` from the JSON editor of the card of `prompt_id`."""
        card = self.page.locator(f"#awaiting .prompt[data-prompt='{prompt_id}']")
        if card.locator("details.raw[open]").count() == 0:  # kept open by a redraw
            card.locator("details.raw summary").click()
        card.locator("textarea[data-raw]").fill(json.dumps(command))
        card.locator("button[data-send-raw]").click()
        self.written += 1

    def free_command(self, command: str) -> None:
        self.page.fill("#free-command", command)
        self.page.click("#send-free")
