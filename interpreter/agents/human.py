"""A person at the keyboard: lists the legal options, numbered, and reads an answer.

The answer may be an option's number, its label, or the start of its label in any
case, as long as only one option starts that way ("blue 7", "put b"); or several
numbers (`2 4 7`): the first is taken now and the others, by their labels, at the
player's next decisions while each is still offered — one prompt for "re-roll any
of your dice" (`chooses some`). A command the caller knows (`on_command(text,
session)`: the CLI's `save FILE`, `quit`, `help`, …) is tried before the label
prefixes, so `q` quits rather than picking "quaff"; it returns True when it handled
the text, and may raise to stop the game. End of input raises EOFError for the
caller to handle.
"""
from __future__ import annotations

from ..text import few


def _input(prompt: str) -> str:
    """`input`, with a closed standard input read as its end."""
    import sys
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    return input(prompt)


def match(answer: str, options) -> tuple[list, str]:
    """The options an answer names, and how: (the one option, "") or (none or several, why not).

    A number, the exact label, the label in any case, then a unique case-insensitive prefix."""
    answer = answer.strip()
    if answer.isascii() and answer.isdigit():
        k = int(answer)
        return ([options[k - 1]], "") if 1 <= k <= len(options) else ([], f"there is no option {k}")
    for same in (lambda label: label == answer, lambda label: label.casefold() == answer.casefold()):
        found = [o for o in options if same(o.label)]
        if found:
            return found[:1], ""
    starts = [o for o in options if o.label.casefold().startswith(answer.casefold())] if answer else []
    if len({o.label for o in starts}) == 1:
        return starts[:1], ""
    if starts:
        return starts, f"'{answer}' starts {len(starts)} options ({few([o.label for o in starts], 3, quote=True)})"
    return [], ""


class HumanAgent:
    def __init__(self, read=None, write=print, on_command=None, prompt: str = "choose a number: ",
                 show_options=None, commands=()):
        self.read = read if read is not None else _input
        self.write = write
        self.on_command = on_command
        self.commands = {c.casefold() for c in commands}     # words tried before label prefixes
        self.prompt = prompt
        self.show_options = show_options or self.list_options
        self.queued: list = []        # labels still to take, and the seat that answered them
        self.queued_by = None

    def list_options(self, options) -> None:
        for i, o in enumerate(options, 1):
            self.write(f"  {i:2d}. {o.label}")

    def choose(self, session) -> int:
        options = session.legal()
        if self.queued and self.queued_by == session.to_move:
            label = self.queued.pop(0)
            queued = [o for o in options if o.label == label]
            if queued:
                return queued[0].id          # (the game's account shows it taken)
        self.queued = []
        self.show_options(options)
        while True:
            answer = self.read(self.prompt).strip()   # EOFError propagates
            exact = [o for o in options if o.label == answer]
            if exact:
                return exact[0].id
            word = answer.split(" ", 1)[0].casefold()
            if answer and word in self.commands and self.on_command is not None and self.on_command(answer, session):
                continue
            several = answer.replace(",", " ").split()
            if len(several) > 1 and all(w.isascii() and w.isdigit() and 1 <= int(w) <= len(options) for w in several):
                self.queued = [options[int(w) - 1].label for w in several[1:]]
                self.queued_by = session.to_move
                return options[int(several[0]) - 1].id
            found, why = match(answer, options)
            if len(found) == 1:
                return found[0].id
            if answer and self.on_command is not None and self.on_command(answer, session):
                continue
            hint = f"{why}; " if why else ""
            self.write(f"{hint}please answer with a number from 1 to {len(options)} (several, to take them in "
                       "turn) or the start of an option"
                       + (" (or 'help')" if self.on_command is not None else ""))
