"""`rulecraft serve`: a web table — a link per person's seat, agents at the others (docs/web.md).

The seats and the game are chosen as `play` chooses them (its `_new` and `_resume`, shared); the
table itself is web.table and its HTTP side web.app, on uvicorn. Both come with the `web` extra.
"""
from __future__ import annotations

import sys

from ..diagnostics import UserError
from . import plaintext, screen
from .arguments import GAME_HELP, TABLE_SEED_HELP, table_args
from .play import SAVE_HOLDS, _new, _resume

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WIDTH = 100                 # the prose is wrapped to it; a link is never cut (it stands on its own line)


def link_lines(labelled: list[tuple[str, str]]) -> list[str]:
    """Each link on its own line under its label, so a terminal never breaks a URL in two (a broken one
    does not open when clicked)."""
    return [line for label, link in labelled for line in (f"  {label}:", f"    {link}")]


def _say(line: str, file=None) -> None:
    for part in screen.wrap(line, WIDTH):
        print(part, file=file)


def add_arguments(serve) -> None:
    serve.description = (
        "Start GAME at a web table and print one join link per person's seat (each with a long secret token) "
        "and a spectator link; agents play the other seats. Each page shows only what its seat may see and "
        "updates live; reloading a link resumes its seat. See docs/web.md.")
    serve.add_argument("game", metavar="GAME", nargs="?", help=GAME_HELP + " (not needed with --load)")
    serve.add_argument("--seat", metavar="K", help="the people's seats, 1-based: --seat 1,2 or --seat all "
                       "(default: the seats --agents names 'human', else seat 1)")
    table_args(serve, TABLE_SEED_HELP)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this "
                       "machine only; another address lets the network in, and says so)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument("--save", metavar="FILE", help="save the game to FILE after every decision (the whole "
                       "game: every seat's hidden cards and the random generator's state)")
    serve.add_argument("--load", metavar="FILE", help="resume a game saved with --save (or by 'play')")
    serve.add_argument("--log", metavar="FILE", help="write the transcript to FILE when the game ends "
                       "('rulecraft replay FILE' replays it)")


def cmd_serve(args) -> int:
    try:
        import uvicorn
        from ..web.app import make_app
        from ..web.table import SPECTATOR, WebTable
    except ImportError:
        raise UserError("'rulecraft serve' needs the web extra: pip install 'rulecraft[web]'") from None
    if not 0 < args.port < 65536:
        raise UserError(f"--port takes a port number from 1 to 65535, not {args.port}")
    args.ask_forced = True
    session, kinds, agents = _resume(args) if args.load else _new(args)
    table = WebTable(session, kinds, agents, save=args.save, log=args.log)
    host = f"[{args.host}]" if ":" in args.host else args.host
    base = f"http://{host}:{args.port}/#t="
    for line in plaintext.header(session, plaintext.seats_text(session, kinds), seed_shown=False,
                                 kept_in=args.save or args.load):
        _say(line)
    labelled = [(session.state.names[seat], f"{base}{table.tokens[seat]}") for seat in table.humans]
    for line in link_lines(labelled + [("spectator (what every seat sees)", f"{base}{table.tokens[SPECTATOR]}")]):
        print(line)
    print("Give each player their own link only: it is their seat, hidden cards included.")
    if args.save:
        _say(f"saving to {args.save} after every decision;" + SAVE_HOLDS.replace("  it holds", " it holds"))
    if args.host not in LOOPBACK:
        _say(f"rulecraft: warning: listening on {args.host}, not 127.0.0.1: other machines can reach this "
             "table (the links are its only lock, and they travel unencrypted over plain HTTP)", file=sys.stderr)
    sys.stdout.flush()
    table.start()
    config = uvicorn.Config(make_app(table), host=args.host, port=args.port, log_level="warning",
                            access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    server.run()
    if not server.started:
        raise UserError(f"cannot listen on {args.host}:{args.port} (is the port in use?)")
    return 0
