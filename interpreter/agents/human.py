"""A person at the keyboard: lists the legal options, numbered, and reads a number."""
from __future__ import annotations

import sys


class HumanAgent:
    name = "human"

    def __init__(self, read=input, write=print):
        self.read = read
        self.write = write

    def choose(self, session) -> int:
        options = session.legal()
        for i, o in enumerate(options, 1):
            self.write(f"  {i:2d}. {o.label}")
        while True:
            try:
                answer = self.read("choose a number: ").strip()
            except EOFError:
                self.write("")
                sys.exit(1)
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1].id
            matches = [o for o in options if o.label == answer]
            if matches:
                return matches[0].id
            self.write(f"please answer with a number from 1 to {len(options)}")
