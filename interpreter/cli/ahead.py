"""What an option commits a person to: the decisions that would then be taken for them.

A decision with one option is taken without asking (cli/play.py). So that nothing is decided for
a person that they did not see coming, each option of their decision is followed, on a copy of
the game, through the decisions of theirs that would have one option only: those labels are shown
beside it ("add ingredients → add Mandrake Root → stop adding"). The look ahead stops at anything
the seat could not know before choosing: another seat's decision, chance, a card it has not seen
coming into its sight, the end of the game, or a failing rule. It reads only the seat's own
options, as it will be shown them, so it tells the seat nothing its decision would not.
"""
from __future__ import annotations

from ..engine import views
from ..engine.limits import PastLimit
from ..runtime.errors import RulesRuntimeError

MOST = 6                    # a longer chain of forced decisions is cut (said with "…")


def forced_after(session, option_id: int, seat: int) -> list[str]:
    """The labels of the decisions taken for `seat` (one option each) after it takes `option_id`."""
    ahead = session.copy()
    seen, drawn = seen_cards(ahead.state, seat), len(ahead.chance)
    labels: list[str] = []
    try:
        ahead.take(option_id)
        while not ahead.over and ahead.to_move == seat and len(labels) <= MOST:
            if len(ahead.chance) != drawn or not seen_cards(ahead.state, seat) <= seen:
                break
            options = ahead.legal()
            if len(options) != 1:
                break
            labels.append(options[0].label)
            ahead.take(options[0].id)
    except (RulesRuntimeError, PastLimit):
        pass
    return labels[:MOST] + (["…"] if len(labels) > MOST else [])


def seen_cards(m, seat: int) -> set[int]:
    """The cards `seat` may see where they lie now."""
    return {c for inst, cards in enumerate(m.zones) if views.can_see(m, inst, seat) for c in cards}
