"""The web table (`rulecraft serve`, web.table and web.app) over HTTP with Starlette's TestClient:
tokens, refused decisions (forged, stale, replayed, out of turn, too big), and that a seat's page is
its own observation — byte for byte the same when what it may not see is otherwise."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import warnings

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")           # a newer Starlette would rather have httpx2 than httpx
    from starlette.testclient import TestClient  # noqa: E402

from rulecraft.cli import common  # noqa: E402
from rulecraft.validate.properties import hidden_otherwise  # noqa: E402
from rulecraft.web.app import MAX_BODY, dumps, make_app  # noqa: E402
from rulecraft.web.table import SPECTATOR, WebTable  # noqa: E402

SEED = 987_654_321


def table_of(kinds, seed=SEED, game="blackmore", start=False):
    program = common.load_program(game)
    session = common.start_session(program, game, len(kinds), seed, [])
    table = WebTable(session, kinds, common.make_agents(kinds, seed))
    if start:
        table.start()
    return table


def client_of(table, rate=1000):
    return TestClient(make_app(table, rate))


def as_seat(table, seat):
    return {"X-Token": table.tokens[seat]}


def decide(client, table, seat, option, version=None, **extra):
    body = {"version": table.version if version is None else version, "option": option, **extra}
    return client.post("/api/decide", headers=as_seat(table, seat), content=json.dumps(body))


def test_tokens_are_long_distinct_and_required():
    table = table_of(["human", "human", "human"])
    tokens = list(table.tokens.values())
    assert len(set(tokens)) == 4 and all(len(t) >= 40 for t in tokens)
    client = client_of(table)
    for headers in ({}, {"X-Token": "nope"}, {"X-Token": tokens[0][:-1]}, {"X-Token": tokens[0] + "x"}):
        r = client.get("/api/page", headers=headers)
        assert r.status_code == 403 and "not a seat" in r.json()["error"]
    assert client.get("/api/page", headers=as_seat(table, 1)).json()["you"] == "Player 2"
    assert client.get("/api/page", headers=as_seat(table, SPECTATOR)).json()["you"] is None
    r = client.get("/api/events?t=wrong")
    assert r.status_code == 403


def test_the_page_and_its_assets_come_from_the_package():
    client = client_of(table_of(["human", "random", "random"]))
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "http" not in page.text.replace("http-equiv", "")         # nothing fetched from elsewhere
    for name in ("app.js", "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "http://" not in r.text and "https://" not in r.text
    assert client.get("/static/../table.py").status_code == 404


def test_refused_decisions_change_nothing():
    table = table_of(["human", "human", "human"])
    client = client_of(table)
    before = client.get("/api/page", headers=as_seat(table, 0)).content
    cases = [
        (1, 0, None, 409, "not your decision"),                 # out of turn
        (0, 99, None, 409, "no option 100"),                    # an illegal option
        (0, -1, None, 409, "no option 0"),
        (0, 0, 5, 409, "old page"),                             # a stale version
        (SPECTATOR, 0, None, 403, "spectator"),
        (0, "0", None, 400, "integers"),                        # forged shapes
        (0, True, None, 400, "integers"),
    ]
    for seat, option, version, status, words in cases:
        r = decide(client, table, seat, option, version)
        assert r.status_code == status and words in r.json()["error"], (seat, option, r.text)
    for body in (b"{", b"[1, 2]", b"null", json.dumps({"version": 0, "option": 0, "pad": "x" * MAX_BODY}).encode()):
        r = client.post("/api/decide", headers=as_seat(table, 0), content=body)
        assert r.status_code in (400, 413) and r.json()["error"], body[:20]
    assert table.version == 0 and not table.session.history
    assert client.get("/api/page", headers=as_seat(table, 0)).content == before
    # a good one is taken; the same message again (replayed) is stale and refused
    assert decide(client, table, 0, 0, 0).status_code == 200
    assert len(table.session.history) == 1
    r = decide(client, table, 0, 0, 0)
    assert r.status_code == 409 and "old page" in r.json()["error"]
    assert len(table.session.history) == 1


def test_decisions_are_rate_limited():
    table = table_of(["human", "human", "human"])
    client = client_of(table, rate=2)       # at most 2 a second pass: 25 in under 9 s leave >= 5 refused,
    codes = [decide(client, table, 1, 0).status_code for _ in range(25)]   # however loaded the machine
    assert codes.count(429) >= 5 and set(codes) <= {409, 429}


def test_agents_play_their_seats_and_a_transcript_replays(tmp_path):
    table = table_of(["human", "random", "random"], start=True)
    table.log_path = str(tmp_path / "game.yaml")
    client = client_of(table)
    rnd = random.Random(1)
    for _ in range(200):
        page = client.get("/api/page", headers=as_seat(table, 0)).json()
        if page["over"]:
            break
        if page["your_turn"]:
            assert decide(client, table, 0, rnd.randrange(len(page["options"])), page["version"]).status_code == 200
        else:
            import time
            time.sleep(0.01)
    assert page["over"] and page["result"][0] == "Final scores:"
    done = subprocess.run([sys.executable, "-m", "rulecraft", "replay", "-q", table.log_path],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert page["result"][-1] in done.stdout


def test_a_page_is_the_same_whatever_the_seat_may_not_see():
    """Observation equivalence over HTTP: permute what seat v cannot see (validate.properties) and v's
    page is byte-identical, while another seat's may change (so the permutation did something)."""
    table = table_of(["human", "human", "human"], seed=5)
    client = client_of(table)
    rnd = random.Random(5)
    compared = changed_elsewhere = 0
    while not table.session.over:
        s = table.session
        for v in range(3):
            other = hidden_otherwise(s.state, v, lambda n: rnd.sample(range(n), n))
            if other is None:
                continue
            mine = client.get("/api/page", headers=as_seat(table, v)).content
            theirs = [client.get("/api/page", headers=as_seat(table, w)).content for w in range(3) if w != v]
            real = s.state
            s.state = other
            try:
                assert client.get("/api/page", headers=as_seat(table, v)).content == mine
                changed_elsewhere += theirs != [client.get("/api/page", headers=as_seat(table, w)).content
                                                for w in range(3) if w != v]
            finally:
                s.state = real
            compared += 1
        seat = s.to_move
        options = client.get("/api/page", headers=as_seat(table, seat)).json()["options"]
        assert decide(client, table, seat, rnd.randrange(len(options))).status_code == 200
    assert compared > 20 and changed_elsewhere > 10


def test_no_page_holds_the_seed_or_another_seats_hand():
    table = table_of(["human", "human", "human"])
    client = client_of(table)
    m = table.session.state
    hands = [json.loads(client.get("/api/page", headers=as_seat(table, v)).content)["view"][0] for v in range(3)]
    for v in range(3):
        body = client.get("/api/page", headers=as_seat(table, v)).text + client.get(
            "/api/rules", headers=as_seat(table, v)).text
        assert str(SEED) not in body
        assert hands[v].startswith("your hand: ")
        for w in range(3):
            if w != v:
                assert hands[w] not in body
    spectator = client.get("/api/page", headers=as_seat(table, SPECTATOR)).text
    assert not any(hand in spectator for hand in hands) and str(SEED) not in spectator
    assert m.names[0] in spectator


def test_pages_are_sorted_json():
    assert dumps({"b": 1, "a": [2]}) == b'{"a":[2],"b":1}'


def test_serve_says_what_it_needs_and_refuses_bad_arguments():
    done = subprocess.run([sys.executable, "-m", "rulecraft", "serve", "blackmore", "--port", "0"],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "port" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "rulecraft", "serve", "blackmore", "--players", "9"],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "not 9" in done.stderr


def _serve(*words, host="127.0.0.1"):
    """`rulecraft serve` in a subprocess on a free port: (process, port, {seat name: link}), once it listens."""
    import socket
    import time
    with socket.socket() as s:
        s.bind((host, 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "rulecraft", "serve", *words, "--host", host, "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    links, label = {}, None
    for line in proc.stdout:
        assert len(line.rstrip("\n")) <= 100, line        # each link on its own line, after its label
        found = re.match(r"  (Player \d|spectator)\b.*:$", line.rstrip("\n"))
        if label and re.fullmatch(r"    http://\S+", line.rstrip("\n")):
            links[label] = line.strip()
        label = found[1] if found else None
        if line.startswith("Give each player"):
            break
    for _ in range(200):
        try:
            socket.create_connection((host, port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, port, links


def _stop(proc) -> str:
    proc.terminate()
    _out, err = proc.communicate(timeout=10)
    return err


def test_serve_warns_when_it_listens_beyond_this_machine():
    proc, _port, links = _serve("blackmore", "--players", "3", host="127.0.0.2")
    err = _stop(proc)
    assert "warning: listening on 127.0.0.2" in err and links
    proc, _port, links = _serve("blackmore", "--players", "3")
    assert "warning" not in _stop(proc)


def test_a_saved_table_resumes_with_its_seats(tmp_path):
    import httpx
    save = tmp_path / "table.save"
    import time
    table = table_of(["human", "human", "random"])
    table.save_path = str(save)
    table.start()
    client = client_of(table)
    while len(table.session.history) < 4:
        with table.lock:
            seat, version = table.session.to_move, table.version
        if seat in table.humans:
            assert decide(client, table, seat, 0, version).status_code == 200
        else:
            time.sleep(0.01)
    while table.session.to_move not in table.humans:
        time.sleep(0.01)
    mine = client.get("/api/page", headers=as_seat(table, 0)).json()
    proc, port, links = _serve("--load", str(save))
    try:
        assert set(links) == {"Player 1", "Player 2", "spectator"}
        token = links["Player 1"].split("#t=")[1]
        page = httpx.get(f"http://127.0.0.1:{port}/api/page", headers={"X-Token": token}).json()
    finally:
        _stop(proc)
    assert page["view"] == mine["view"] and page["log"] == mine["log"] and len(page["log"]) > 3


def test_a_page_asks_the_choices_prompt_and_ends_with_the_scores_parts():
    """Issue 29: the question of a choice (`prompt`) is on the chooser's page only; the end says what each
    score is made of."""
    table = table_of(["human", "random"], start=True)
    client = client_of(table)
    rnd = random.Random(3)
    prompts = set()
    for _ in range(400):
        page = client.get("/api/page", headers=as_seat(table, 0)).json()
        if page["over"]:
            break
        if page["your_turn"]:
            prompts.add(page["prompt"])
            assert decide(client, table, 0, rnd.randrange(len(page["options"])), page["version"]).status_code == 200
        else:
            assert page["prompt"] is None
            import time
            time.sleep(0.01)
    assert page["over"] and "You won the contest: change the trump?" in prompts and None in prompts
    assert page["score_parts"][0] == "What the scores are made of:" and len(page["score_parts"]) == 3
