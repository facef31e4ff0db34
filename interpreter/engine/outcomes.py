"""A game's declared outcome applied to its end (`outcome …`, docs/language.md).

`finish` ranks the seats by score and tiebreak; a declaration then says more: a cooperative game
is won by every seat together when its `when` holds, and lost by every seat together otherwise
(no winners); a zero-sum or constant-sum game promises what its scores sum to, and any outcome
may bound every score. A promise the rules break is the rules' error, said at the declaration,
so that a learner or an analysis that relies on it is never fed a game that breaks it.
"""
from __future__ import annotations

from ..runtime.errors import RuleFailure, RulesRuntimeError
from ..runtime.helpers import MAX_INT


def winners(m, outcome, scores, ranked: tuple) -> tuple:
    """The winning seats of a finished game under `outcome` (ranked: the winners by score)."""
    if outcome.low is not None:
        for seat, s in enumerate(scores):
            if not outcome.low <= s <= outcome.high:
                raise RulesRuntimeError(f"{m.names[seat]}'s score is {s}, outside the declared "
                                        f"`scores {outcome.low}..{outcome.high}`", outcome.span)
    if outcome.total is not None and sum(scores) != outcome.total:
        raise RulesRuntimeError(f"the scores {', '.join(map(str, scores))} sum to {sum(scores)}, but the game is "
                                f"declared `outcome {outcome.kind}`" +
                                (f" {outcome.total}" if outcome.kind == "constant-sum" else ""), outcome.span)
    if outcome.won is None:
        return ranked
    if len(set(scores)) > 1:
        raise RulesRuntimeError(f"the players of a cooperative game share one result, but their scores differ "
                                f"({', '.join(map(str, scores))})", outcome.span)
    try:
        won = outcome.won(m)
    except RuleFailure as e:
        raise RulesRuntimeError(f"outcome: {e}", outcome.span) from None
    return tuple(range(m.n)) if won else ()


def one_result(program) -> bool:
    """Do all seats share one result (a declared cooperative game)?"""
    return program.outcome is not None and program.outcome.kind == "cooperative"


def side_of(program, seat: int) -> int:
    """The seat's side: one side for all in a cooperative game, its team in a team game, else itself."""
    if one_result(program):
        return 0
    return seat % len(program.teams) if program.teams else seat


def sides(program, players: int) -> list[int]:
    """Every seat's side (side_of), at once."""
    if one_result(program):
        return [0] * players
    teams = len(program.teams)
    return [p % teams for p in range(players)] if teams else list(range(players))


def side_count(program, players: int) -> int:
    """How many sides play: 1 in a cooperative game, the teams (at most one per seat), else the seats."""
    if one_result(program):
        return 1
    return min(len(program.teams), players) if program.teams else players


# ------------------------------------------------------------------ what the returns promise (the RL adapters)
def utility(program, reward: str) -> tuple:
    """What a game's returns promise a learner, for `reward` "win" or "score": (kind, lowest, highest,
    sum), kind one of "constant-sum", "zero-sum", "identical", "general-sum" (OpenSpiel's names), sum
    None unless it is constant. "win" shares 1 among the winners (constant-sum 1), or is 1 to every
    seat or 0 to every seat in a cooperative game (identical). "score" is general-sum between
    rulecraft's integer bounds unless the game declares its outcome and the bounds of its scores."""
    outcome = program.outcome
    if reward == "win":
        return ("identical", 0.0, 1.0, None) if one_result(program) else ("constant-sum", 0.0, 1.0, 1.0)
    low, high = float(-MAX_INT), float(MAX_INT)
    if outcome is not None and outcome.low is not None:
        low, high = float(outcome.low), float(outcome.high)
    if outcome is None:
        return ("general-sum", low, high, None)
    if one_result(program):
        return ("identical", low, high, None)
    return ("zero-sum" if outcome.total == 0 else "constant-sum", low, high, float(outcome.total))


def unfinished_returns(program, players: int, reward: str) -> list[float]:
    """The returns of a game its decision limit stopped: no one won (a cooperative game is lost), and a
    constant sum is shared equally, so the promise of `utility` holds."""
    _kind, low, high, total = utility(program, reward)
    each = total / players if total is not None else 0.0
    return [max(low, min(high, each))] * players
