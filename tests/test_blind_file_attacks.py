"""Issue 24's cheats played through the real files of a game with hidden units and no referee.

Each cheat is played as the attacker would play it: the Japanese player runs a
modified pbem for his own commands (his commitments built by a patched
``commitment.commit``) or rewrites a file he sent and signs it again with his
own key; the American player runs the real pbem.  Each is caught, naming the
Japanese player and the moment: at once (``pbem blind next``/``verify``/
``status``) or at the ``audit`` after ``publish-secret``, with exit status 1.

The games are made reproducible (fixed game id and per-game secrets), so an
honest game played first says which step and which marker a cheat aims at.
The helpers are tests/blind_games.py's.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from pathlib import Path

import pytest

from pbem.loading.datafiles import load_scenario
from pbem.protocol import blindfile, commitment as c
from pbem.protocol.canonical import canonical_bytes
from tests.blind_games import GAME, SCENARIO, SECRETS, Player, illegal_mover, play_to_the_end, publish_secret, resign, step, reproducible, begin as _begin  # noqa: F401  (an autouse fixture: the same game id and secrets every game)
from tests.games import pbem, shortened_scenario

def begin(base: Path, scenario: str = SCENARIO) -> dict:
    base.mkdir(parents=True, exist_ok=True)
    SECRETS[0] = itertools.count(1)
    return _begin(base, scenario)


def bodies(folder: Path) -> list[dict]:
    return [blindfile.read(p.read_text(), p.name).body for p in blindfile.numbered_files(folder)]


def publications(folder: Path) -> dict[int, dict]:
    return {b["publication"]["seq"]: b["publication"] for b in bodies(folder) if b["from"] == "JP" and b["n"] > 0}


def honest(base: Path, scenario: str = SCENARIO, until: int | None = None) -> dict[int, dict]:
    """The Japanese publications of the honest game, by step: of the whole game, or of its first ``until`` files."""
    players = begin(base, scenario)
    play_to_the_end(players, until=until)
    return publications(players["US"].game)


@contextlib.contextmanager
def cheating_commitments(monkeypatch, change):
    """The Japanese player's modified pbem: every root he builds goes through ``change(seq, pieces)``."""
    real = c.commit

    def commit(secret, *, game, seq, pieces):
        return real(secret, game=game, seq=seq, pieces=change(seq, {k: dict(v) for k, v in pieces.items()}))

    with monkeypatch.context() as m:
        m.setattr(c, "commit", commit)
        yield


def play_with_cheater(base: Path, monkeypatch, change, scenario: str = SCENARIO) -> dict:
    """A whole game in which the Japanese player's commands build cheated roots (the American player's build only
    the empty root, which ``change`` leaves alone; his checks build none), then the secret published."""
    with cheating_commitments(monkeypatch, change):
        players = begin(base, scenario)
        play_to_the_end(players)
        publish_secret(players)
    return players


def against(pub: dict) -> int:
    """The step whose root a publication's 'before' openings are checked against (-1: the set-up's)."""
    return -1 if pub["side"] == "setup" else pub["seq"] - 1


def verdict(folder: Path) -> list[dict]:
    """``pbem verify --json``'s findings for the folder (exit 1)."""
    return json.loads(pbem("verify", folder, "--json", code=1))["findings"]


# -- (4) a dummy that turns out to be a real unit when opened, or the reverse: at once ---------------------------

@pytest.mark.parametrize("opened_as", ["real", "dummy"])
def test_a_marker_committed_as_the_other_kind_is_caught_at_once_when_opened(tmp_path, monkeypatch, opened_as):
    pubs = honest(tmp_path / "honest", until=4)  # the first marker opened as each kind is opened early (step 1)
    seq, opening = next((s, o) for s, p in sorted(pubs.items()) for o in p["before"]
                        if (o["piece"] == c.DUMMY) == (opened_as == "dummy"))
    tree = against(pubs[seq])
    fake = {"id": "jp-fake", "kind": "infantry", "attack": 2, "defense": 3, "move": 4}

    def relabel(s, pieces):  # the root he opens it against says the other kind
        if s == tree:
            pieces[opening["marker"]] = fake if pieces[opening["marker"]] == c.DUMMY else dict(c.DUMMY)
        return pieces

    with cheating_commitments(monkeypatch, relabel):
        players = begin(tmp_path / "cheat")
        while True:
            name = step(players)
            assert name is not None, "the game ended before the cheat was opened"
            if name == blindfile.file_name(2 * seq):
                break
    us = players["US"]
    said = pbem("blind", "next", us.game, "--key", us.key, code=1)
    assert "do not play on" in said and f"step {seq}: JP" in said and "caught at once" in said
    words = ("a real unit stood under a marker opened as a dummy" if opened_as == "real"
             else "a dummy was committed as a real unit")
    found = verdict(us.game)
    assert found and found[0]["cheater"] == "JP" and found[0]["when"] == "at once" and found[0]["seq"] == seq, found
    assert any(words in f["problem"] for f in found), found
    assert "do not play on" in us.status(code=1)


# -- (2) a commitment changed between turns otherwise than the moves: at the audit -------------------------------

def test_two_hidden_identities_swapped_in_a_root_are_caught_at_the_audit_naming_the_step(tmp_path, monkeypatch):
    # test-skirmish exposes nearly every unit; Leyte's hidden units, not its length, are what the cheat needs
    scenario = shortened_scenario(tmp_path, "leyte-assault", 4).stem
    monkeypatch.chdir(tmp_path)  # both players' pbem find it in ./scenarios
    # the honest game's first dozen files: the cheat aims at an early step (the first quiet one below), not the last
    pubs = honest(tmp_path / "honest", scenario, until=12)
    # two hidden units no opening against that root (nor against the next step's, which must be among those played)
    # shows: nothing the American player sees can show the swap
    quiet = {s for s in pubs if s > 1 and pubs[s]["side"] != "setup" and s + 1 in pubs}
    swapped = {}

    def swap(s, pieces):  # at the first such step holding two different hidden units (the same pair every time)
        if s in quiet and (not swapped or swapped["seq"] == s):
            opened = {o["marker"] for o in pubs[s]["after"] + (pubs[s + 1]["before"] if s + 1 in pubs else [])}
            real = sorted(h for h, p in pieces.items() if p != c.DUMMY and h not in opened)
            pair = next(((a, b) for a, b in itertools.combinations(real, 2) if pieces[a] != pieces[b]), None)
            if pair:
                a, b = pair
                pieces[a], pieces[b] = pieces[b], pieces[a]
                swapped.update(seq=s, pair=pair)
        return pieces

    players = play_with_cheater(tmp_path / "cheat", monkeypatch, swap, scenario)
    us = players["US"]
    assert swapped, "no step to play the cheat on"
    seq = swapped["seq"]
    said = pbem("verify", us.game)  # nothing the American player holds shows it before the secret...
    assert "verified" in said
    said = pbem("audit", us.game, code=1)  # ...the audit with the published secret does, naming the step
    assert "AUDIT FAILED" in said and f"step {seq}: JP" in said and "the commitment changed otherwise than the moves" in said
    assert "caught at the audit" in said


# -- (1) two histories: two signed files for the same step -------------------------------------------------------

def _jp_file_acknowledged(players, at_least: int) -> str:
    """Play until the American player has acknowledged a Japanese publication of step ``at_least`` or later."""
    while True:
        name = step(players)
        assert name is not None
        n = int(name[6:10])
        if name.endswith("-US.pbem") and n >= 2 * at_least + 1:
            return blindfile.file_name(n - 1)


def test_two_histories_a_second_signed_file_for_an_acknowledged_step_is_refused_naming_the_japanese_player(tmp_path):
    players = begin(tmp_path)
    jp, us = players["JP"], players["US"]
    name = _jp_file_acknowledged(players, 2)
    first = (us.game / name).read_text()

    def other(body):  # the same step told otherwise: another root
        body["publication"]["root"] = "sha256:" + "0" * 64

    resign(jp.game / name, jp.key, other)  # he rewrites his own copy and sends it as a "correction"
    jp.mail(name, us)
    assert (us.game / name).read_text() != first
    answered = blindfile.file_name(int(name[6:10]) + 1)
    for command in (("blind", "next", us.game, "--key", us.key), ("verify", us.game), ("status", us.game, "--key", us.key)):
        said = pbem(*command, code=1)  # at once: he cannot play on, and the cheater is named
        assert f"{answered}: prev: does not follow {name}" in said, said
        assert f"US answered another {name} than the one here, which JP signed too" in said, said
        assert "JP sent two different files for one place in the game (two histories)" in said, said


# -- (5) a rewritten earlier file: the chain is broken --------------------------------------------------------

def test_a_rewritten_earlier_file_breaks_the_chain_and_is_refused_naming_it(tmp_path):
    players = begin(tmp_path)
    jp, us = players["JP"], players["US"]
    play_to_the_end(players, until=8)
    name = blindfile.file_name(2)  # the set-up's publication, long acknowledged and played on

    def rewrite(body):
        body["publication"]["public"] = {**body["publication"]["public"], "note": "rewritten"}

    resign(us.game / name, jp.key, rewrite)
    for command in (("verify", us.game), ("blind", "next", us.game, "--key", us.key), ("audit", us.game)):
        said = pbem(*command, code=1)
        assert f"{blindfile.file_name(3)}: prev: does not follow {name}" in said, said
        assert "JP sent two different files for one place in the game (two histories) or rewrote it" in said, said


# -- (3) a hidden unit moved beyond its allowance or through a zone of control: at the audit ---------------------

@pytest.mark.parametrize("rule,words,scenario", [("5.13", "allowance", SCENARIO), ("6.0", "zone of control", SCENARIO),
                                                 ("5.21", "sea", "leyte-assault")])
def test_a_hidden_unit_moved_against_the_rules_is_caught_at_the_audit_naming_the_step_and_the_unit(
        tmp_path, monkeypatch, rule, words, scenario):
    for attempt in range(4):  # a game where one of his hidden units can make such a move
        base = tmp_path / str(attempt)
        base.mkdir()
        with illegal_mover(monkeypatch, rule) as cheat:
            players = _begin(base, scenario)  # (the secrets run on from the last attempt: another game)
            play_to_the_end(players)
            said = players["US"].status(code=1) if cheat else ""
            if "(caught at once)" in said:
                private = json.loads((players["JP"].game / "blind-private-JP.json").read_text())["orders"]
                cheated = next(int(s) for s, o in private.items() if canonical_bytes(o) == cheat["orders"])
                bound = f"step {cheated}: JP published in {blindfile.file_name(2 * cheated)} counters no legal play"
                if bound in said:
                    # The public bound on hidden moves (issue 35 item 4): no marker before the step could have reached
                    # the hex it ends in (the sea, or beyond every allowance), refused at the step itself.
                    assert cheat["end"] in said and "5.13" in said, said
                    assert bound in pbem("verify", players["US"].game, code=1)
                    return
                # A consequence the American sees: the moved unit stands where it should be exposed (at sea, or in
                # a clear hex: 19B.3) but is not, and is opened at a later American step that exposes nothing
                # there; his verify names JP at that step, at once (issue 35), before any audit.
                seq = next(int(m) for m in re.findall(r"step ([0-9]+): JP opened the marker in", said))
                assert seq > cheated, (seq, cheated)
                assert "JP opened the marker in" in pbem("verify", players["US"].game, code=1)
                return
            publish_secret(players)
        if cheat:
            break
    else:
        pytest.fail(f"no game offered a hidden move breaking {rule}")
    us, jp = players["US"], players["JP"]
    orders = json.loads((jp.game / "blind-private-JP.json").read_text())["orders"]
    seq = next(int(s) for s, o in orders.items() if canonical_bytes(o) == cheat["orders"])
    assert "verified" in pbem("verify", us.game)  # the American player cannot see a hidden move
    said = pbem("audit", us.game, code=1)
    assert "AUDIT FAILED" in said and f"step {seq}: JP carried out orders the rules refuse ({rule})" in said, said
    assert cheat["unit"] in said and words in said and "caught at the audit" in said
    # the deed (issue 35 item 6): the unit, where it stood, where it went, its allowance
    allowance = next(u.move for u in load_scenario(scenario).scenario.units if u.id == cheat["unit"])
    assert f"the deed: {cheat['unit']} moved from {cheat['start']} to {cheat['end']}" in said, said
    assert f"movement allowance {allowance})" in said, said


# -- what the American player receives: the same bytes whatever stands under a hidden marker ---------------------

def _same_keys(name: str):
    """Both games are played with the same two keys: what differs between their files is then only the game's."""
    import hashlib

    from cryptography.hazmat.primitives.asymmetric import ed25519, x25519

    from pbem.protocol.keys import PrivateIdentity

    seed = hashlib.sha256(name.encode()).digest()
    return PrivateIdentity(name, ed25519.Ed25519PrivateKey.from_private_bytes(seed),
                           x25519.X25519PrivateKey.from_private_bytes(hashlib.sha256(seed).digest()))


def _differences(a, b, where=""):
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [d for k in a for d in _differences(a[k], b[k], f"{where}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{where}[]")]
    return [] if a == b else [where]


MAY_DIFFER = {  # hashes over what stands under the markers, and what signs or chains them
    ".sig", ".body.prev", ".body.setup.root", ".body.publication.root", ".body.commit.orders",
    ".body.publication.before[].path[]", ".body.publication.after[].path[]"}


def swapped_games(tmp_path, monkeypatch) -> tuple[list[str], int, bool]:
    """Two games from the same seeds and keys whose Japanese set-ups differ only in where two hidden units stand (his
    moves mirrored): what differs in the files the American player receives until the rules expose one of them,
    beyond the hashes over the markers and what signs or chains them (nothing, when no file leaks); how many files
    were compared; whether audit paths differed among them (openings of other markers were compared)."""
    import pbem.bot.play as bot
    from pbem.bot.play import bot_orders
    from pbem.game.modes.blind import run as br
    from pbem.loading.datafiles import load_scenario
    from pbem.game.step import genesis_step

    name = "leyte-assault"  # test-skirmish exposes nearly every unit at once
    monkeypatch.setattr("pbem.protocol.keys.generate", _same_keys)
    loaded = load_scenario(name)
    genesis = genesis_step(loaded, {}, game=GAME, scenario_ref={"id": name, "hash": "-"},
                           ruleset=loaded.scenario.ruleset.model_dump(mode="json"), options=["hidden-units"])
    setup = bot_orders(genesis.views["JP"], loaded, "greedy", 0)
    units = setup["deployment"]["units"]
    kind = {u.id: (u.kind, u.attack, u.defense, u.move) for u in loaded.scenario.units}
    swapped = json.loads(json.dumps(setup))
    real_orders = bot.bot_orders

    def mirrored(view, loaded, policy="greedy", seed=0, think=None):
        """Game two's Japanese player moves each marker as game one's does (a and b exchanged back and forth)."""
        if view.get("side") != "JP" or not (view["state"].get("hidden") or {}).get("deployed"):
            return real_orders(view, loaded, policy, seed, think)
        seen = json.loads(json.dumps(view))
        where = seen["state"]["locations"]
        where[a], where[b] = where[b], where[a]
        text = json.dumps(real_orders(seen, loaded, policy, seed, think))
        return json.loads(text.replace(f'"{a}"', '"\\0"').replace(f'"{b}"', f'"{a}"').replace('"\\0"', f'"{b}"'))

    def play(game: str, deployment: dict, mirror=None) -> Path:
        base = tmp_path / game
        base.mkdir()
        (base / "setup.json").write_text(json.dumps(deployment))
        SECRETS[0] = itertools.count(1)
        players = {side: Player(base, side) for side in ("US", "JP")}
        jp, us = players["JP"], players["US"]
        pbem("new", name, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game, "--no-referee",
             "--option", "hidden-units", "--setup", base / "setup.json")
        us.game.mkdir()
        jp.mail(blindfile.file_name(0), us)
        with monkeypatch.context() as m:
            if mirror:
                m.setattr(bot, "bot_orders", mirror)
            play_to_the_end(players, until=16)  # eight steps of each player
        return us.game

    first_game = play("one", setup)
    exposed = {}  # each unit's first step shown (the rules exposed it)
    for seq, pub in sorted(publications(first_game).items()):
        for unit in br._names(pub["view"]):
            exposed.setdefault(unit, seq)
    kind = {u.id: (u.kind, u.attack, u.defense, u.move) for u in loaded.scenario.units}
    pairs = [(a, b) for a, b in itertools.combinations(sorted(units), 2) if "dummy" not in kind[a] + kind[b]]
    # the two hidden longest (then, of different strengths if they can be): the widest window to compare
    a, b = max(pairs, key=lambda p: (min(exposed.get(p[0], 99), exposed.get(p[1], 99)), kind[p[0]] != kind[p[1]]))
    swapped["deployment"]["units"][a], swapped["deployment"]["units"][b] = units[b], units[a]
    folders = [first_game, play("two", swapped, mirrored)]
    one, two = ([blindfile.read(p.read_text(), p.name) for p in blindfile.numbered_files(f)] for f in folders)
    compared, paths_differ, leaks = 0, False, []
    for first, second in zip(one, two):
        if first.n % 2:
            continue  # the American player's own files
        shown = set().union(*(br._names(m.body["publication"]["view"]) for m in (first, second) if "publication" in m.body))
        if shown & {a, b}:
            break  # the rules expose one of them (the views name it): from here on the files may differ
        if len((folders[0] / first.source).read_text()) != len((folders[1] / second.source).read_text()):
            leaks.append(f"{first.source}: another length")
        differ = set(_differences(first.envelope, second.envelope))
        leaks += [f"{first.source}: {d}" for d in sorted(differ - MAY_DIFFER)]
        assert ".body.setup.root" in differ or ".body.publication.root" in differ, first.source  # the hashes did change
        compared += 1
        paths_differ = paths_differ or any(d.endswith(".path[]") for d in differ)
    return leaks, compared, paths_differ


def test_two_games_differing_only_in_two_hidden_identities_send_the_american_the_same_files_but_hashes(
        tmp_path, monkeypatch):
    leaks, compared, paths_differ = swapped_games(tmp_path, monkeypatch)
    assert leaks == []
    # the genesis and two publications at least, one of them opening other markers (their audit paths differ)
    assert compared >= 3 and paths_differ, f"only {compared} file(s) compared"


def test_the_file_comparison_sees_an_opening_the_rules_do_not_demand(tmp_path, monkeypatch):
    """The Japanese program opens, with the honest openings, every marker the rules leave hidden (the American
    player's own checks stop the game at once; the comparison sees the pieces opened)."""
    from pbem.game.modes.blind import exposure as blind
    from pbem.game.modes.blind.exposure import Exposure, hidden_markers

    real = blind.exposure

    def more(board, before, after, events, side):
        found = real(board, before, after, events, side)
        hidden = sorted(set(hidden_markers(after)) - set(found.after))
        return Exposure(found.side, found.before, {**found.after, **{h: "x" for h in hidden}}, found.claims)

    monkeypatch.setattr(blind, "exposure", more)
    leaks, _, _ = swapped_games(tmp_path, monkeypatch)
    assert any(".body.publication.after[].piece" in leak for leak in leaks), leaks
