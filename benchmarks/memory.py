"""What memory is worth to the search: ISMCTS sampling with the seat's memory against the same search
sampling from what the seat sees now (as before issue 26), and each against `cheat`, in Blackmore 2p.

    python benchmarks/memory.py                 100 games a pairing (about 4 CPU-minutes in all)
    python benchmarks/memory.py -n 400          more games
    python benchmarks/memory.py --quick         10 games a pairing
    python benchmarks/memory.py --cost          what memory costs: a sample, and a session's game

It first says how much of a sampled hand is cards already won, with memory and without (issue 26).

Each pairing plays half its games with the first-named search in seat 1 and half in seat 2, each
game from its own seed (simulate's game_seed), on simulate's bare table. A shared win counts half.
The forgetful search is the package's ISMCTS given a seat whose samples ignore the memory: the old
sampling lives here only (engine.determinize.sample without `memory`), not in the package.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_line  # noqa: E402

from rulecraft.agents.registry import agent_seed, make_agent  # noqa: E402
from rulecraft.agents.search import SearchAgent  # noqa: E402
from rulecraft.agents.seat import act  # noqa: E402
from rulecraft.engine import determinize, machine  # noqa: E402
from rulecraft.loader import game_path, load_file  # noqa: E402
from rulecraft.simulate.games import BareTable, game_seed  # noqa: E402

SEARCH = "ismcts:iterations=100"


class ForgetfulSeat:
    """A seat whose samples are drawn from what it sees now, as every sample was before memory."""

    def __init__(self, seat):
        self._seat = seat

    def __getattr__(self, name):
        return getattr(self._seat, name)

    def sample(self, rng, chance_only: bool = False):
        state = self._seat._Seat__session.state
        got = determinize.sample(state, self._seat.seat, rng, chance_only)
        if got is None:
            got = state.copy()
            got.rng = rng.getrandbits(64)
        return got

    def sampler(self, chance_only: bool = False):
        return lambda rng: self.sample(rng, chance_only)


class ForgetfulSearch(SearchAgent):
    def choose(self, seat) -> int:
        return super().choose(ForgetfulSeat(seat))


def make(name: str, seed: int):
    if name == "forgetful":
        return ForgetfulSearch(seed=seed, iterations=100)
    return make_agent(name, seed)


def play_one(program, names, seed) -> list[float]:
    """Each seat's share of the win in one game."""
    state = machine.new_game(program, 2, None, seed)
    agents = [make(name, agent_seed(seed, seat)) for seat, name in enumerate(names)]
    table = BareTable(program, state, remember=True)
    while state.result is None:
        table.take(act(agents[machine.chooser(state)], table))
    winners = state.result[2]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(2)]


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of `points` in `n` games."""
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pairing(program, mine: str, theirs: str, n: int, seed: int) -> tuple[float, int, float]:
    points, cpu = 0.0, time.process_time()
    for i in range(n):
        s = game_seed(seed, i)
        seat = i % 2                       # `mine` sits first in even games
        names = [mine, theirs] if seat == 0 else [theirs, mine]
        points += play_one(program, names, s)[seat]
    return points, n, time.process_time() - cpu


def cost(program, rounds: int = 7) -> None:
    """CPU time of a sample with and without memory (Blackmore 2p, 30 decisions in), and of random
    Session games with and without memory followed, alternated, medians of `rounds`."""
    import random
    import statistics

    from rulecraft.engine.session import Session

    s = Session.start(program, "blackmore", 2, 1, narrate=False)
    for _ in range(30):
        s.take(s.legal_ids()[0])

    def samples(memory, k=2000):
        rng, cpu = random.Random(1), time.process_time()
        for _ in range(k):
            determinize.sample(s.state, s.to_move, rng, memory=memory)
        return (time.process_time() - cpu) / k * 1e6

    def games(follow, k=30):
        cpu = time.process_time()
        for seed in range(k):
            g = Session.start(program, "blackmore", 4, seed, narrate=False)
            if not follow:
                g.whereabouts = None
            pick = random.Random(seed)
            while not g.over:
                ids = g.legal_ids()
                g.take(ids[pick.randrange(len(ids))])
        return (time.process_time() - cpu) / k * 1e3

    runs: dict = {"with": [], "without": [], "followed": [], "not followed": []}
    for _ in range(rounds):
        runs["with"].append(samples(s.whereabouts))
        runs["without"].append(samples(None))
        runs["followed"].append(games(True))
        runs["not followed"].append(games(False))
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"a sample, blackmore 2p after 30 decisions: {med['with']:.1f} µs with memory, {med['without']:.1f} µs "
          f"without ({med['with'] / med['without']:.2f}×; medians of {rounds}, alternated)")
    print(f"a random Session game, blackmore 4p: {med['followed']:.2f} ms with memory followed, "
          f"{med['not followed']:.2f} ms without ({med['followed'] / med['not followed']:.2f}×)")


def forgotten(program, games: int = 20, samples: int = 10) -> None:
    """How much of the other hand, as sampled, is cards already won (face down, after being played face
    up), after 10, 30, 50 and 70 decisions of random Blackmore 2p games: with and without memory."""
    import random

    from rulecraft.agents.seat import Seat
    from rulecraft.engine.session import Session

    marks = (10, 30, 50, 70)
    base = {z.name: z.base for z in program.zones}
    counts = {(kind, k): [0, 0, 0, 0] for kind in ("forgetful", "memory") for k in marks}
    for seed in range(games):
        s = Session.start(program, "blackmore", 2, seed, narrate=False)
        pick, rng = random.Random(seed), random.Random(seed)
        while not s.over:
            k = s.state.decisions
            if k in marks:
                me = s.to_move
                won = {c for p in range(2) for c in s.state.zones[base["won"] + p]}
                hand = base["hand"] + 1 - me
                for kind in ("forgetful", "memory"):
                    for _ in range(samples):
                        seat = Seat(s, me)
                        world = (ForgetfulSeat(seat) if kind == "forgetful" else seat).sample(rng)
                        held = world.zones[hand]
                        tally = counts[kind, k]
                        tally[0] += sum(c in won for c in held)         # cards of the sampled hand already won
                        tally[1] += len(held)
                        tally[2] += bool(won & set(held))                # samples with one at least
                        tally[3] += 1
            ids = s.legal_ids()
            s.take(ids[pick.randrange(len(ids))])
    print(f"blackmore 2p, random play, {games} games, {samples} samples a seat at each mark: the share of the other "
          "hand's sampled cards already won (and of samples holding one at least)")
    for kind in ("forgetful", "memory"):
        rates = ", ".join(f"{t[0] / t[1]:.0%} ({t[2] / t[3]:.0%}) after {k}"
                          for k in marks for t in [counts[kind, k]] if t[3])
        print(f"  {kind:9}: {rates}; {sum(counts[kind, k][3] for k in marks)} samples")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=100, help="games a pairing (default 100)")
    ap.add_argument("--quick", action="store_true", help="10 games a pairing")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cost", action="store_true", help="what memory costs, instead of the games")
    args = ap.parse_args()
    n = 10 if args.quick else args.n
    program = load_file(game_path("blackmore"))
    print(machine_line(), "· one process")
    if args.cost:
        cost(program)
        return 0
    forgotten(program)
    cheat = "cheat:iterations=100"
    for mine, rival in ((SEARCH, "forgetful"), (SEARCH, cheat), ("forgetful", cheat)):
        points, games, cpu = pairing(program, mine, rival, n, args.seed)
        lo, hi = wilson(points, games)
        who = f"{SEARCH} (forgetful)" if mine == "forgetful" else f"{SEARCH} (with memory)"
        print(f"blackmore 2p: {who} against {rival}: wins {points / games:.1%} of {games} games "
              f"(95 % CI {lo:.1%}–{hi:.1%}), {cpu / games:.1f} CPU-s a game", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
