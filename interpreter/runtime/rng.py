"""The game's one source of chance: SplitMix64 on a single integer.

A single int is trivially copied and saved, and the sequence is the same on
every machine and Python version (unlike `random.Random`'s internals).
"""
from __future__ import annotations

import struct

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
    """A number in 0..n-1 from the state's RNG (advances it). The RNG is the state's `_rng`, an
    engine.state.State's raw slot (not its `rng`, a property): a new game holds its seed there as
    `(seed,)`, mixed at the first draw, or the first read of `rng`."""
    s = state._rng
    if s.__class__ is tuple:
        s = seed_state(s[0])
    s, z = next_u64(s)
    state._rng = s
    return z % n


def shuffle(state, items: list) -> None:
    """Fisher–Yates in place with the state's RNG (its `_rng`, as `below` says): the draw for
    position i (from the top down) is the next SplitMix64 output modulo i + 1.

    The outputs are computed all at once: SplitMix64's k-th state is the seed plus k times its
    constant, so every state is one lane of a big integer (a lane every 128 bits, wide enough for a
    lane's product) and each mixing step is one operation on the whole integer, masked to 64 bits a
    lane before each product. The same numbers as one at a time (tests/test_engine.py), in half the
    time for a deck of 54: as fast as `random.shuffle`. (At most 64 at once, so the
    integers stay small and few are kept however large a zone.)"""
    i = len(items) - 1
    s = state._rng
    if s.__class__ is tuple:      # a new game's seed, not mixed yet (below)
        s = seed_state(s[0])
    while i > 0:
        n = i if i < _LANES else _LANES
        ones, ramp, lanes, unpack, size = _packing(n)
        z = (s * ones + GAMMA * ramp) & lanes
        z = (((z ^ (z >> 30)) & lanes) * 0xBF58476D1CE4E5B9) & lanes
        z = (((z ^ (z >> 27)) & lanes) * 0x94D049BB133111EB) & lanes
        z ^= z >> 31
        for r in unpack(z.to_bytes(size, "little")):
            j = r % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        s = (s + n * GAMMA) & MASK
    state._rng = s


GAMMA = 0x9E3779B97F4A7C15
_LANES = 64            # draws computed at once: a few kB of integers, and at most 64 packings kept
_PACKINGS: dict = {}


def _packing(n: int) -> tuple:
    """For n draws: the lanes' ones and ramp 1..n, their 64-bit mask, and a reader of each lane's low 64 bits."""
    found = _PACKINGS.get(n)
    if found is None:
        ones = sum(1 << (128 * k) for k in range(n))
        ramp = sum((k + 1) << (128 * k) for k in range(n))
        found = _PACKINGS[n] = (ones, ramp, MASK * ones, struct.Struct("<" + "Q8x" * n).unpack, 16 * n)
    return found
