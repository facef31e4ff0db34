"""`simulate --plot`: score distributions per seat, win rate by seat, and game lengths, in one figure.

matplotlib is an optional extra (`pip install 'rulecraft[plot]'`), imported only here; the
figure is drawn with the non-interactive Agg backend, so it needs no display.
"""
from __future__ import annotations

from ..diagnostics import UserError


def draw(path: str, sides: list[dict]) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UserError("--plot needs matplotlib: pip install 'rulecraft[plot]'") from None
    fig, (scores, rates, lengths) = plt.subplots(1, 3, figsize=(15, 4.5))
    names = [_name(s) for s in sides]
    for k, side in enumerate(sides):
        done = [r for r in side["results"] if r.scores]
        players = side["players"]
        data = [[r.scores[p] for r in done] for p in range(players)]
        positions = [p * (len(sides) + 1) + k for p in range(players)]
        box = scores.boxplot(data, positions=positions, widths=0.8, patch_artist=True)
        for patch in box["boxes"]:
            patch.set_facecolor(f"C{k}")
            patch.set_alpha(0.5)
        seats = side["summary"]["seats"]
        xs = [p + k * 0.8 / len(sides) for p in range(players)]
        rates.bar(xs, [s["win_rate"] for s in seats], width=0.8 / len(sides), color=f"C{k}", label=names[k],
                  yerr=[[s["win_rate"] - s["ci"][0] for s in seats], [s["ci"][1] - s["win_rate"] for s in seats]],
                  capsize=3)
        lengths.hist([r.decisions for r in side["results"]], bins=30, alpha=0.5, color=f"C{k}", label=names[k])
    players = sides[0]["players"]
    scores.set_xticks([p * (len(sides) + 1) + (len(sides) - 1) / 2 for p in range(players)])
    scores.set_xticklabels([f"Player {p + 1}" for p in range(players)])
    scores.set_title("scores by seat")
    rates.set_xticks([p + 0.4 - 0.4 / len(sides) for p in range(players)])
    rates.set_xticklabels([f"Player {p + 1}" for p in range(players)])
    rates.axhline(1 / players, color="grey", linestyle=":", label="a fair share")
    rates.set_ylim(0, 1)
    rates.set_title("win rate by seat (95% interval)")
    lengths.set_title("game length (decisions)")
    handles, labels = rates.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize="small", frameon=False)
    s = sides[0]["summary"]
    fig.suptitle(f"{sides[0]['title']}: {s['games']} games, {players} players, agents "
                 f"{', '.join(sides[0]['agents'])}")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    try:
        fig.savefig(path, dpi=100)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)


def _name(side: dict) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in side["options"].items())
    return f"{side['ref']}" + (f" ({opts})" if opts else "")
