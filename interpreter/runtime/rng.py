"""The game's one source of chance: SplitMix64 on a single integer.

A single int is trivially copied and saved, and the sequence is the same on
every machine and Python version (unlike `random.Random`'s internals).
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Mix the seed, so that neighbouring seeds start far apart in the sequence."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def next_u64(s: int) -> tuple[int, int]:
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def below(state, n: int) -> int:
    """A number in 0..n-1 from the state's RNG (advances `state.rng`)."""
    s, z = next_u64(state.rng)
    state.rng = s
    return z % n


def shuffle(state, items: list) -> None:
    """Fisher–Yates in place with the state's RNG."""
    s = state.rng
    for i in range(len(items) - 1, 0, -1):
        s = (s + 0x9E3779B97F4A7C15) & MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    state.rng = s
