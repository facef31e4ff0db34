"""A person at the keyboard: lists the legal options, numbered, and reads a number.

The answer may be an option's number or its exact label, or several numbers
(`2 4 7`): the first is taken now and the others, by their labels, at the
player's next decisions while each is still offered — one prompt for "re-roll
any of your dice" (`chooses some`). Anything else is
offered to `on_command(text, session)` (the CLI's `save FILE`, `quit`,
`help`): it returns True when it handled the text, and may raise to stop the
game. End of input raises EOFError for the caller to handle.
"""
from __future__ import annotations


def _input(prompt: str) -> str:
    """`input`, with a closed standard input read as its end."""
    import sys
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    return input(prompt)


class HumanAgent:
    def __init__(self, read=None, write=print, on_command=None, prompt: str = "choose a number: "):
        self.read = read if read is not None else _input
        self.write = write
        self.on_command = on_command
        self.prompt = prompt
        self.queued: list = []        # labels still to take, and the seat that answered them
        self.queued_by = None

    def list_options(self, options) -> None:
        for i, o in enumerate(options, 1):
            self.write(f"  {i:2d}. {o.label}")

    def choose(self, session) -> int:
        options = session.legal()
        if self.queued and self.queued_by == session.to_move:
            label = self.queued.pop(0)
            matches = [o for o in options if o.label == label]
            if matches:
                return matches[0].id          # (the game's account shows it taken)
        self.queued = []
        self.list_options(options)
        while True:
            answer = self.read(self.prompt).strip()   # EOFError propagates
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1].id
            several = answer.replace(",", " ").split()
            if len(several) > 1 and all(w.isascii() and w.isdigit() and 1 <= int(w) <= len(options) for w in several):
                self.queued = [options[int(w) - 1].label for w in several[1:]]
                self.queued_by = session.to_move
                return options[int(several[0]) - 1].id
            matches = [o for o in options if o.label == answer]
            if matches:
                return matches[0].id
            if answer and self.on_command is not None and self.on_command(answer, session):
                continue
            self.write(f"please answer with a number from 1 to {len(options)} (several, to take them in turn)"
                       + (" (or 'help')" if self.on_command is not None else ""))
