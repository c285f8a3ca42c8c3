"""Hidden units with no referee: the openings an American player-turn owes, checked at once (issue 35, items 2-3).

Each test is a cheating Japanese player with his own modified pbem (monkeypatched while only his commands run),
sending his files by copy; the American player runs the unmodified pbem on what he receives, and his ``pbem verify``
(and ``blind next``) exits 1 naming the Japanese player, the step and the rule case, before he plays on.  On the code
before issue 35 each of these passed his checks (exit 0) and only the audit found them.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from pathlib import Path

import pytest

from pbem.game.modes.blind import files as blind_files
from pbem.model.common import NOT_ON_MAP
from pbem.protocol import blindfile
from tests.blind_games import Player, fix_games, begin as blind_begin, write, resign
from tests.games import pbem, run

SCENARIO = "leyte-assault"


@pytest.fixture(autouse=True)
def reproducible(monkeypatch):
    """Each test's games the same every run, whatever ran before it in the process (its own count of secrets)."""
    fix_games(monkeypatch, itertools.count(3))


def begin(base: Path, scenario: str = SCENARIO) -> dict[str, Player]:
    return blind_begin(base, scenario)


def us_attacks_a_marker(players) -> list[str]:
    """The hexes of hidden markers the American orders the Japanese player must adjudicate next attack ([] if none)."""
    held = blind_files.load(players["JP"].game)
    seq = len(held.record.publications) + 1
    if held.next_writer != "JP" or seq not in held.record.us_orders or held.last_pub is None:
        return []
    view = held.last_pub.view["state"]
    hidden = {view["locations"][u["id"]] for u in view["units"] if u["side"] == "JP" and u["kind"] == "hidden"}
    orders = held.record.us_orders[seq][0]
    return sorted({d for a in orders.get("attacks", []) for d in a["defenders"] if d in hidden})


def verdict(players) -> str:
    """What the American player's unmodified pbem says of his folder: verify's output (its exit code checked by
    the caller through ``run``)."""
    code, out, err = run("verify", players["US"].game)
    assert "Traceback" not in out + err
    return code, out + err


@contextlib.contextmanager
def swapping(partner_is_dummy: bool, done: dict):
    """The Japanese client: in an American player-turn attacking a marker, the unit under it changes place with
    another piece before the step is carried out (a stronger unit, or a dummy elsewhere), and the step opens what
    honestly stands where that piece stood — a valid leaf of another marker."""
    from pbem.game.modes.blind import run as br
    from pbem.game.step import play

    real = br.Japanese.carry_out

    def carry_out(self, seq, step, orders, stream, ruleset):
        state = step.state
        attacked = {d for a in orders.get("attacks", []) for d in a["defenders"]}
        units = state.unit_index()
        at = {where: u for u, where in state.locations.items() if units[u].side == "JP" and where not in NOT_ON_MAP}
        hidden = {h: u for h, u in at.items() if u not in state.hidden.exposed}
        target = next((h for h in sorted(attacked) if h in hidden and not units[hidden[h]].is_dummy), None)
        if done or step.state.to_act() != "US" or target is None:
            return real(self, seq, step, orders, stream, ruleset)
        victim = hidden[target]
        others = [h for h, u in hidden.items() if h not in attacked and units[u].is_dummy == partner_is_dummy]
        if partner_is_dummy:
            pick = others[0] if others else None
        else:
            pick = max(others, key=lambda h: units[hidden[h]].defense, default=None)
        if pick is None:
            return real(self, seq, step, orders, stream, ruleset)
        done.update(seq=seq, hex=target, other=pick)
        locations = dict(state.locations) | {victim: pick, hidden[pick]: target}
        swapped = state.model_copy(update={"locations": locations})
        return play(self.loaded, ruleset, swapped, orders, stream, game=self.game, seq=seq, scenario_ref=self.ref,
                    source=f"step {seq}")

    real_openings = br.Japanese.openings

    def openings(self, tree, markers):  # the other piece's marker opened, never the attacked one
        if done:
            markers = sorted((set(markers) - {done["hex"]}) | {done["other"]})
        return real_openings(self, tree, markers)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(br.Japanese, "carry_out", carry_out)
        patch.setattr(br.Japanese, "openings", openings)
        yield done


def play_until_an_attack_on_a_marker(players, limit: int = 60) -> None:
    for _ in range(limit):
        if us_attacks_a_marker(players):
            return
        write(players)
    pytest.skip("no American attack on a marker in this game")


@pytest.mark.parametrize("partner", ["stronger unit", "dummy"])
def test_an_attacked_marker_not_opened_is_caught_at_once(tmp_path, partner):
    """Issue 35 item 2: the American attacks the marker in H; the Japanese client puts another piece there (a
    stronger unit, or passes the real unit off as a dummy by swapping in a genuine dummy from elsewhere) and opens the
    valid leaf of the other marker instead of H's.  Caught by the American's own verify, at once (19B.4)."""
    players = begin(tmp_path)
    play_until_an_attack_on_a_marker(players)
    done: dict = {}
    writer, sent = write(players, lambda: swapping(partner == "dummy", done))
    assert writer == "JP" and done, "the cheat found no piece to swap"
    code, said = verdict(players)
    assert code == 1, said
    assert f"step {done['seq']}: JP did not open the marker in {done['hex']}" in said and "19B.4" in said, said
    assert "caught at once" in said, said
    said = pbem("blind", "next", players["US"].game, "--key", players["US"].key, "--bot", "greedy", code=1)
    assert f"step {done['seq']}: JP" in said, said


@contextlib.contextmanager
def short_intelligence():
    """The Japanese client: the intelligence roll after the set-up exposes one unit fewer than the die gives (the last
    pick left hidden), and the publication opens only those it shows."""
    import pbem.engine.exposure as engine_exposure

    real = engine_exposure.intelligence_picks

    def picks(*args, **kwargs):
        return real(*args, **kwargs)[:-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine_exposure, "intelligence_picks", picks)
        yield


def test_an_intelligence_roll_exposing_fewer_units_than_the_die_is_caught_at_once(tmp_path):
    """Issue 35 item 2: the picks of the 2d6 after the set-up follow from the marker hexes, the policy and the die
    (19B.7), all public; a publication leaving one hidden is refused by the American's verify at once."""
    players = begin(tmp_path)
    write(players)  # the American acknowledgement and seed
    writer, sent = write(players, short_intelligence)
    assert writer == "JP" and blindfile.read(sent.read_text(), sent.name).body["publication"]["side"] == "setup"
    code, said = verdict(players)
    assert code == 1, said
    assert "step 1: JP did not open the marker in" in said and "a pick of the intelligence roll (19B.7)" in said, said
    assert "caught at once" in said


@contextlib.contextmanager
def stronger_scenario(unit: str = "jp-7-armor", defense: int = 15):
    """The Japanese client: his pbem plays ``unit`` with another defense than the public order of battle prints,
    from his genesis on (the scenario's hash, taken from the file, is unchanged)."""
    import pbem.game.modes.blind.files as files_module

    real = files_module.load_scenario

    def load(name):
        loaded = real(name)
        units = [u.model_copy(update={"defense": defense}) if u.id == unit else u for u in loaded.scenario.units]
        return type(loaded)(loaded.path, loaded.scenario.model_copy(update={"units": units}), loaded.board)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files_module, "load_scenario", load)
        yield


def test_a_piece_opened_with_strengths_the_order_of_battle_does_not_print_is_caught_at_once(tmp_path):
    """Issue 35 item 2: jp-7-armor is 2-1-10 in the public order of battle; the Japanese client commits and fights it
    with defense 15.  The first opening of it is refused at once by the American's verify, naming the unit, the
    strength and what the scenario prints."""
    players = {side: Player(tmp_path, side) for side in ("US", "JP")}
    jp, us = players["JP"], players["US"]
    with stronger_scenario():
        pbem("new", SCENARIO, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game, "--no-referee",
             "--option", "hidden-units")
    us.game.mkdir()
    jp.mail(blindfile.file_name(0), us)
    for _ in range(80):
        write(players, stronger_scenario)
        opened = [o for pub in blind_files.load(us.game).record.publications for o in pub.before + pub.after
                  if o.piece.get("id") == "jp-7-armor"]
        if opened:
            break
    else:
        pytest.skip("jp-7-armor was never opened")
    code, said = verdict(players)
    assert code == 1, said
    assert "as jp-7-armor with defense 15, where the scenario's order of battle prints defense 1" in said, said
    assert "caught at once" in said
    # the audit names the deed (issue 35 item 6): the marker, the unit, the strength and the rule case
    said = pbem("audit", us.game, code=1)
    assert "AUDIT FAILED" in said, said
    assert (f"JP opened the marker in {opened[0].marker} as jp-7-armor with defense 15, where the scenario's order of "
            "battle prints defense 1 (3.0") in said, said


def resign_genesis(players, change) -> None:
    """The Japanese player's genesis rewritten and signed again with his key (his own client writes what it likes)."""
    path = players["US"].game / blindfile.file_name(0)
    resign(path, players["JP"].key, change)


@pytest.mark.parametrize("cheat,words", [
    ("outside", "where no piece may set up: outside the set-up zone"),
    ("too many", "at most 4 dummies (19B.2, 19B.6)"),
    ("no armor hex", "leaves jp-7-armor (armor) no marker to stand under: no marker of the set-up (or too few) stands "
                     "where armor may set up"),
    ("all clear", "committed 16 marker(s) where no dummy may set up (a clear hex, 19B.3"),
])
def test_a_set_up_outside_the_zone_or_with_too_many_markers_is_caught_at_once(tmp_path, cheat, words):
    """Issue 35 items 2-3: the set-up's marker hexes and their number are public; so is which kinds of piece each hex
    may hold (armor in its terrain, 5.25; no dummy in a clear hex, 19B.3).  A genesis whose markers no reading of
    the order of battle fits — the armor left no hex it may take, more markers in clear hexes than units — is refused
    by the American's verify (and his first blind next) before he acknowledges it; before, any hex some piece could
    take passed."""
    players = begin(tmp_path)

    def change(body):
        markers = body["setup"]["markers"]
        if cheat == "outside":  # one marker moved far from the zone (the count kept)
            body["setup"]["markers"] = sorted(markers[1:] + ["0101"])
        elif cheat == "too many":  # three dummies more than the scenario's four
            body["setup"]["markers"] = sorted(markers + [m for m in _free_zone_hexes() if m not in markers][:3])
        elif cheat == "no armor hex":  # every marker where a unit or dummy may stand, none where armor may
            body["setup"]["markers"] = sorted(_free_zone_hexes(plain_only=True)[:len(markers)])
        else:  # every marker in a clear hex: the 4 dummies with the 12 units
            body["setup"]["markers"] = sorted(_free_zone_hexes(clear_only=True)[:len(markers)])

    resign_genesis(players, change)
    code, said = verdict(players)
    assert code == 1, said
    assert "step 1: JP committed" in said and words in said and "caught at once" in said, said
    said = pbem("blind", "next", players["US"].game, "--key", players["US"].key, "--bot", "greedy", code=1)
    assert words in said, said


def _free_zone_hexes(*, plain_only: bool = False, clear_only: bool = False) -> list[str]:
    """Hexes of the set-up zone a dummy may take (``plain_only``: and armor may not; ``clear_only``: the clear hexes,
    which only units may take)."""
    from pbem.engine.deployment import SetupZone
    from pbem.engine.dummies import clear
    from pbem.engine.sequence import opening
    from pbem.loading.datafiles import load_scenario

    loaded = load_scenario(SCENARIO)
    zone = SetupZone.of(loaded.board, opening(loaded.scenario, hidden=True))
    if clear_only:
        return [h for h in zone.places() if clear(loaded.board, h)]
    armor = set(zone.places(armor=True)) if plain_only else set()
    return [h for h in zone.places(dummy=True) if h not in armor]


@pytest.mark.parametrize("deed,scenario", [("retreated", SCENARIO), ("eliminated", "leyte-final-collapse")])
def test_a_combat_result_told_and_not_applied_is_caught_at_once(tmp_path, deed, scenario):
    """Issue 35 item 4: the view's event says an American unit retreated (or was eliminated); the position the same
    view carries (and the public record's digest of it) keeps it where it stood.  The Japanese player re-signs his
    publication so; the American's verify refuses it at once, naming the unit."""
    players = begin(tmp_path, scenario)

    def fitting(pub):
        for e in pub["view"]["last"]["events"]:
            unit = e.get("unit")
            if str(unit).startswith("us-") and unit in pub["view"]["state"]["locations"] and (
                    (deed == "retreated" and e["type"] == "retreated" and not e["eliminated"] and e["path"])
                    or (deed == "eliminated" and e["type"] == "eliminated")):
                return e
        return None

    for _ in range(80):
        if blind_files.load(players["US"].game).over:
            pytest.fail(f"no American unit {deed} in this game")
        writer, sent = write(players)
        pub = blindfile.read(sent.read_text(), sent.name).body.get("publication") if writer == "JP" else None
        if pub and fitting(pub):
            break
    else:
        pytest.skip(f"no {deed} unit in this game")
    event = fitting(pub)
    stood = event["from"] if deed == "retreated" else event["hex"]

    def change(body):  # his client applied no result: the view's position and the public record's digest of it agree
        from pbem.game.record_checks import digest, shown_position

        view = body["publication"]["view"]
        view["state"]["locations"][event["unit"]] = stood
        body["publication"]["public"]["position"] = digest(shown_position(view["state"]))

    resign(sent, players["JP"].key, change)
    code, said = verdict(players)
    assert code == 1, said
    assert f"step {pub['seq']}: JP published a view whose events leave {event['unit']}" in said, said
    assert f"keeps it in {stood}" in said and "caught at once" in said, said


def test_orders_template_reads_a_blind_game_folder_or_file(tmp_path):
    """Issue 35 item 7: ``pbem orders template`` on a blind game (its folder or its latest file) prints the skeleton
    of the orders the player's next file carries, as for a turn file; before, it refused blind files (exit 2)."""
    players = begin(tmp_path)
    for _ in range(6):
        held = blind_files.load(players["US"].game)
        if held.next_writer == "US" and held.awaiting == "US" and held.last_pub is not None:
            break
        write(players)
    else:
        pytest.fail("the American player never awaited orders")
    us = players["US"]
    latest = blindfile.numbered_files(us.game)[-1]
    for where in (us.game, latest):
        code, out, err = run("orders", "template", where, "--key", us.key)
        assert code == 0 and "Traceback" not in err, out + err
        skeleton = json.loads(out)  # the American's skeleton: his units on the map stay put (none before the landing)
        assert set(skeleton) >= {"moves", "attacks"} and all(m["unit"].startswith("us-") for m in skeleton["moves"]), skeleton
    said = pbem("orders", "template", players["JP"].game, "--key", players["JP"].key, code=2)
    assert "blind next" in said, said


@contextlib.contextmanager
def dummy_set_up_in_clear(done: dict):
    """The Japanese client: his set-up (the greedy bot's) puts one dummy in a clear hex of the zone, which 19B.3 keeps
    dummies out of, and his pbem skips the set-up check that would refuse it."""
    import pbem.engine.adjudicator as adjudicator
    from pbem.engine.dummies import clear
    from pbem.loading.datafiles import load_scenario

    real = blind_files._greedy
    board = load_scenario(SCENARIO).board

    def greedy(view, loaded, seed):
        orders = real(view, loaded, seed)
        deployment = orders["deployment"]
        taken = set(deployment["units"].values()) | set(deployment["dummies"])
        there = next(h for h in _free_zone_hexes(clear_only=True) if h not in taken and clear(board, h))
        done.update(dummy=there)
        deployment["dummies"] = [there] + deployment["dummies"][1:]
        return orders

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(blind_files, "_greedy", greedy)
        patch.setattr(blind_files, "check_deployment", lambda *a, **k: [])
        patch.setattr(adjudicator, "check_deployment", lambda *a, **k: [])
        yield done


def test_a_dummy_set_up_in_a_clear_hex_is_caught_at_once_when_the_set_up_opens_it(tmp_path):
    """Issue 35 item 2: a marker in a clear hex is exposed as the set-up ends (19B.3), so the set-up step must open it
    (before, an honest unit set up there was refused as an opening the step does not expose); opened as a dummy, the
    set-up broke 19B.3, and the American's verify says so at once, though the markers alone fit the order of battle."""
    players = {side: Player(tmp_path, side) for side in ("US", "JP")}
    jp, us = players["JP"], players["US"]
    done: dict = {}
    with dummy_set_up_in_clear(done):
        pbem("new", SCENARIO, "--us", us.pub, "--jp", jp.pub, "--key", jp.key, "--out", jp.game, "--no-referee",
             "--option", "hidden-units")
    us.game.mkdir()
    jp.mail(blindfile.file_name(0), us)
    assert pbem("verify", us.game)  # the genesis alone: its markers fit the order of battle
    write(players)  # the American acknowledgement and seed
    writer, sent = write(players, lambda: dummy_set_up_in_clear(done))
    assert writer == "JP" and blindfile.read(sent.read_text(), sent.name).body["publication"]["side"] == "setup"
    code, said = verdict(players)
    assert code == 1, said
    assert f"step 1: JP opened the marker in {done['dummy']} as a dummy, which may not set up there (19B.3" in said, said
    assert "caught at once" in said


@contextlib.contextmanager
def exposing_one_more(done: dict):
    """The Japanese client: in the first American player-turn where one of his units retreats, he also shows a hidden
    unit standing within three hexes of that retreat, in a hex that is not clear — one no rule exposes (his pbem opens
    it against the root before the step and after it, as for a displaced unit)."""
    from pbem.engine import hexes
    from pbem.engine.dummies import clear
    from pbem.game.modes.blind import run as br
    from pbem.game.modes.blind.exposure import hidden_markers
    from pbem.game.step import record_step

    real = br.Japanese.carry_out

    def carry_out(self, seq, step, orders, stream, ruleset):
        played = real(self, seq, step, orders, stream, ruleset)
        state, board = played.state, self.loaded.board
        retreats = [e for e in played.last["events"] if e["type"] == "retreated" and str(e["unit"]).startswith("jp-")
                    and e["path"]]
        if done or step.state.to_act() != "US" or not retreats:
            return played
        us = {state.locations[u.id] for u in state.units if u.side == "US" and state.on_map(u.id)}
        zoc = {n for h in us for n in board.neighbours(h)}
        before = hidden_markers(step.state)
        for hex_id, unit in sorted(hidden_markers(state).items()):
            if (state.unit(unit).is_dummy or hex_id in zoc or clear(board, hex_id) or before.get(hex_id) != unit
                    or not any(hexes.distance(hex_id, e["from"]) <= 3 for e in retreats)):
                continue
            done.update(seq=seq, hex=hex_id, unit=unit)
            shown = state.model_copy(update={"hidden": state.hidden.model_copy(
                update={"exposed": frozenset(state.hidden.exposed | {unit})})})
            return record_step(shown, game=self.game, seq=seq, scenario_ref=self.ref, ruleset=ruleset,
                               over=played.over, last=played.last, loaded=self.loaded, before=step.state)
        return played

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(br.Japanese, "carry_out", carry_out)
        yield done


def test_a_marker_opened_near_a_retreat_but_never_displaced_into_sight_is_caught_at_once(tmp_path):
    """Issue 35 item 2: a displaced marker (7.8) is opened only where the step tells its piece — seen in a clear hex
    (19B.3), or a dummy removed there — within the hexes the Japanese retreats of the step can have pushed it.  Before,
    any marker within three hexes of a defender might be opened; now one shown where no displacement can have exposed it
    is refused at once."""
    players = begin(tmp_path)
    done: dict = {}
    for _ in range(40):
        write(players, lambda: exposing_one_more(done))
        if done:
            break
    else:
        pytest.skip("no American player-turn made a Japanese unit retreat near a hidden one")
    code, said = verdict(players)
    assert code == 1, said
    assert f"step {done['seq']}: JP opened the marker in {done['hex']}, which the step does not expose" in said, said
    assert "7.8" in said and "caught at once" in said, said


@contextlib.contextmanager
def one_point_stronger():
    """The Japanese client: every Japanese attack is fought one point stronger than its attackers print (his engine's
    figures: the event, the roll's purpose, the public record, all alike)."""
    import dataclasses

    import pbem.engine.engagement as engagement

    real = engagement.engage

    def engage(state, index, attack):
        found = real(state, index, attack)
        if state.phasing != "JP":
            return found
        return dataclasses.replace(found, attack_strength=found.attack_strength + 1)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engagement, "engage", engage)
        yield


def test_a_japanese_attack_fought_stronger_than_its_attackers_print_is_caught_at_once(tmp_path):
    """Issue 35: every figure of a Japanese attack is public — its attackers (named, and opened as they stand exposed
    after it), their printed strengths, the Ground Support spent — so the attack it was fought with is checked at once.
    The Japanese client fights one point stronger, every record of it consistent; before, only the audit found it."""
    players = begin(tmp_path)
    for _ in range(60):
        writer, sent = write(players, one_point_stronger)
        pub = blindfile.read(sent.read_text(), sent.name).body.get("publication") if writer == "JP" else None
        fought = [e for e in (pub or {}).get("view", {}).get("last", {}).get("events", [])
                  if e["type"] == "combat" and pub["side"] == "JP"]
        if fought:
            break
    else:
        pytest.skip("no Japanese attack in this game")
    event = fought[0]
    code, said = verdict(players)
    assert code == 1, said
    assert (f"step {pub['seq']}: JP resolved combat {event['index']} with an attack of {event['attack']}, but its "
            f"attackers") in said and f"make {event['attack'] - 1} (7.3" in said, said
    assert "caught at once" in said, said
