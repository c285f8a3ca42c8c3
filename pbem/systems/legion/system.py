"""The Legion system answering the seam (:class:`pbem.systems.base.RulesSystem`): the room's rules, played as games.

A thin adapter, like the SPI system's: the opening (:mod:`.opening`), the
check and the adjudication (:mod:`.adjudicator`), victory (:mod:`.victory`)
and the scenario's files (:mod:`.files`) answer the game layer's questions.

**A player-turn in more than one orders file.**  A Legion player-turn is
two sets of orders (4): movement and combat, then exploitation once the
combat results are known — three on a PM Game-Turn, when the Japanese
player may declare a Night Exploitation Phase (6C.2).  The position says
which it awaits (``position.phase``), the game layer asks the side it names
for orders (``to_act``), and each set is its own turn file, orders file and
dice: the same side is awaited twice (or three times) running, and the
exploitation orders are written on the turn file that shows the combat
results.  So nothing in the files changes: a Legion game is more turn files
per Game-Turn, not another protocol.

The hidden-units option is 19B limited intelligence and Dummies: the
room's :mod:`.views` answer the seam's questions of what each side may know
(its view, the events it is told, the position its orders are judged on)
and :mod:`.blind` what the no-referee mode commits and opens.

What is not yet carried through the seam: the defender's standing choices written
in orders (I1: ``defense`` is refused, the policy of docs/legion.md
decides), and the play page's reachable hexes, paths and odds (:mod:`.drawing` draws
the maps; the page takes orders as JSON and clicks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import BadInput
from pbem.systems.base import Checked, DiceSource, PlayerTurn, Problem

NAME = "legion-2010"
STATE_FORMAT = "pbem-legion-state-1"
#: The frozenset fields of a position, written as sorted lists (the same position, the same bytes).
_SETS = ("ci", "fired", "reserve", "exposed")


class LegionSystem:
    """Legion's Island War Series Standard Rules (2010), the ground game (docs/legion.md)."""

    name = NAME
    title = "Legion Island War Series Standard Rules (2010, Saipan / Tinian): the ground game"
    options: frozenset[str] = frozenset({"hidden-units"})  # 19B limited intelligence and Dummies, through the seam (:mod:`.views`)

    # -- the scenario -----------------------------------------------------------------------------------------

    def load_scenario(self, document: dict, path: Path, *, verified: bool = False):
        from pbem.loading.datafiles import LoadedScenario
        from pbem.systems.legion.files import scenario_from

        loaded = scenario_from(document, Path(path), verified=verified)
        return LoadedScenario(loaded.path, loaded.scenario, loaded.board, NAME)

    def carried_document(self, loaded, document: dict) -> dict:
        """The map and every chart read in (:func:`~pbem.systems.legion.files.charts_from`), so the genesis holds them."""
        from pbem.systems.legion.files import charts_from

        _, charts = charts_from(loaded.scenario.charts, loaded.path.parent, str(loaded.path))
        return document | {"charts": charts}

    def catalogue_entry(self, loaded, *, full: bool) -> dict:
        scenario = loaded.scenario
        entry: dict[str, Any] = {
            "id": scenario.id, "title": scenario.title, "kind": scenario.kind, "first_turn": scenario.first_turn,
            "last_turn": scenario.last_turn, "first_player": scenario.first_player, "edition": None,
        }
        if not full:
            return entry
        units = []
        for u in scenario.units:
            row = {"id": u.id, "side": u.side, "type": u.type, "size": u.size, "name": u.name,
                   "strengths": f"{u.attack}-{u.defense}-{u.move}" + (f" B/S {u.bs} R{u.range}" if u.bs else ""), "hex": u.hex,
                   "source": u.source}
            units.append({k: v for k, v in row.items() if v is not None})
        return entry | {
            "description": scenario.description, "units": units, "pm_turns": list(scenario.pm_turns),
            "limited_intelligence": scenario.limited_intelligence,
            "victory": scenario.victory.model_dump(mode="json", exclude_none=True), "special_rules": list(scenario.special_rules),
        }

    def describe(self, entry: dict) -> list[str]:
        lines = [f"{entry['id']}: {entry['title']}",
                 f"Rules system {NAME}; Game-Turns {entry['first_turn']}-{entry['last_turn']}, {entry['first_player']} moves first"
                 + (f"; PM Game-Turns {', '.join(map(str, entry['pm_turns']))} (6C.2)" if entry.get("pm_turns") else "") + "."]
        if entry.get("description"):
            lines.append(entry["description"])
        for side in ("US", "JP"):
            placed = [u for u in entry["units"] if u["side"] == side]
            lines += ["", f"{side}: {len(placed)} units on the map"]
            lines += [f"  {u['id']:<16} {u['type']:<12} {u['size']:<10} {u['strengths']:<12} {u['hex']}" for u in placed]
        victory = entry["victory"]
        lines += ["", "Objectives (20): " + ", ".join(f"{name} ({h})" for name, h in victory.get("objectives", {}).items()),
                  "Victory Table (20), first line that holds:"]
        for level in victory["levels"]:
            bounds = {k: v for k, v in level.items() if k not in ("level", "source")}
            lines.append(f"  {level['level']}: " + ", ".join(f"{k} {v}" for k, v in bounds.items()) + f" — {level['source']}")
        lines.append(f"  otherwise: {victory['otherwise']}")
        if entry.get("special_rules"):
            lines += ["", "Special rules:"] + [f"  {r}" for r in entry["special_rules"]]
        return lines

    # -- the position ---------------------------------------------------------------------------------------------

    def state_to_json(self, state) -> dict:
        document = state.model_dump(mode="json", exclude_none=True)
        for key in _SETS:
            if key in document:
                document[key] = sorted(document[key])
        document["units"] = [{k: v for k, v in u.items() if v is not None} for u in document["units"]]
        return {"format": STATE_FORMAT, "system": NAME, **document}

    def state_from_json(self, document: dict):
        from pbem.systems.legion.state import LegionState

        if document.get("format") != STATE_FORMAT:
            raise ValueError(f"a Legion position is format {STATE_FORMAT!r}, not {document.get('format')!r}")
        return LegionState.model_validate({k: v for k, v in document.items() if k not in ("format", "system")})

    def tell_view(self, view: dict, outlook: dict | None) -> str:
        from pbem.systems.legion.telling import tell

        return tell(view, outlook)

    def tell_last(self, last: dict) -> list[str]:
        """As ``pbem view`` tells it (:mod:`.telling`): moves, each combat with its odds, die and result, losses, Hits."""
        from pbem.systems.legion.telling import last_lines

        return last_lines(last)

    def map_scene(self, view: dict, loaded, *, centre: str | None = None, radius: int | None = None,
                  show_zoc: bool = False, show_events: bool = True, objectives: bool = True):
        """The room's map (:mod:`.drawing`): the TEC's terrains and hex-sides, counters with their markers, hex ownership (5B),
        and the objective hexes always (20: the scenario's Victory Table, known to both players)."""
        from pbem.systems.legion.drawing import scene

        return scene(view, loaded, centre=centre, radius=radius, show_zoc=show_zoc, show_events=show_events)

    def planner(self, view: dict, loaded, source: str):
        """Orders written as JSON on the page, checked by this system (no clicking yet), starting from the template."""
        from pbem.game.orders_text import OrdersText

        blank, hints = self.orders_template(view, {})
        return OrdersText(view, loaded, source, blank, hints)

    def orders_template(self, view: dict, document: dict) -> tuple[dict, list[str]]:
        """The blocks of orders the position's phase takes (4), empty, and what each holds."""
        phase = view["state"]["position"]["phase"]
        if phase == "movement":
            skeleton = {"reserves": [], "moves": [], "attacks": []}
            hints = ['this turn file takes the Initial, Movement and Combat Phases (4): "reserves" (6B.3), "moves" '
                     '({"units": [...], "path": [hexes entered], "overruns": [...]}, 6) and "attacks" ({"type": "assault" or '
                     '"fire", "target": HEX, "attackers": [...]}, 9); your exploitation orders come on the next turn file, '
                     "once the combat results are known (6C)"]
        elif phase == "night":
            skeleton = {"exploitation": [], "attacks": []}
            hints = ["the Night Exploitation Phase (6C.2): exploitation moves and Assault Combat only; empty orders decline it"]
        else:
            skeleton = {"exploitation": []}
            hints = ['the Exploitation Phase (6C): "exploitation" moves, as "moves" are written']
        hints.append('add "note": "..." to send your opponent a few words, signed with your orders and shown in his view')
        return skeleton, hints

    # -- the rules --------------------------------------------------------------------------------------------------

    def pinned_ruleset(self, loaded, edition: str | None) -> dict:
        if edition:
            raise BadInput(f"the {NAME} rules system has one edition, the 2010 Series Standard Rules: give no --edition, not {edition!r}",
                           field="edition")
        return {"system": NAME}

    def rules_named(self, ruleset: dict) -> str:
        """One edition (the 2010 Series Standard Rules): the system's name, where an SPI game names its edition."""
        return NAME

    def rules(self, ruleset: dict) -> dict:
        if set(ruleset) != {"system"}:
            raise ValueError(f"a {NAME} ruleset holds only 'system', not {sorted(ruleset)}")
        return dict(ruleset)

    def opening(self, loaded, *, hidden: bool, options: list[str] | None = None):
        """The scenario's set-up (5B ownership from the ZOCs); ``hidden``: with 19B limited intelligence and its Dummies,
        which a scenario with none (``limited_intelligence`` false) refuses.  Without it every counter is seen and the
        Dummies stand as 0-strength counters the enemy may examine."""
        from pbem.systems.legion.opening import opening

        if hidden and not loaded.scenario.limited_intelligence:
            raise BadInput(f"scenario {loaded.scenario.id} plays without limited intelligence (19B): it has no hidden units",
                           field="--option", hint="start the game without --option hidden-units")
        return opening(loaded.board, loaded.scenario.model_copy(update={"limited_intelligence": hidden}))

    def read_orders(self, document: Any, source: str):
        from pbem.systems.legion.files import load
        from pbem.systems.legion.orders import LegionOrders

        return load(LegionOrders, document, source, "docs/legion.md (orders)")

    def check_orders(self, loaded, ruleset: dict, state, orders) -> Checked:
        """The room's check (4-11A, 14, 19A), and I1: standing choices are not yet carried between player-turns."""
        from pbem.systems.legion.adjudicator import check_orders

        problems = check_orders(loaded.board, state, orders, cp_per_unit=loaded.scenario.victory.cp_per_unit)
        if orders.defense is not None:
            problems += (Problem("I1", None, "standing choices ('defense') are not yet kept between player-turns of a "
                                 "game: leave 'defense' out, and the policy of docs/legion.md decides"),)
        return Checked(tuple(problems))

    def adjudicate(self, loaded, ruleset: dict, state, orders, dice: DiceSource, *, checked: Checked | None = None) -> PlayerTurn:
        from pbem.systems.legion.adjudicator import adjudicate

        # Under limited intelligence the orders are judged on the position their side may know (judged_on): every
        # rejection is one its own view gives; a move the whole position refuses is then called off as it comes (6B.2c).
        hidden = self.hides(state)
        if checked is None:
            checked = self.check_orders(loaded, ruleset, self.judged_on(state, state.to_act()), orders)
        if not checked.valid:
            return PlayerTurn(False, checked.problems, (), (), state)
        result = adjudicate(loaded.board, state, orders, dice, None, cp_per_unit=loaded.scenario.victory.cp_per_unit, checked=hidden)
        return PlayerTurn(result.valid, tuple(result.problems), tuple(result.events), tuple(result.combats), result.state)

    def end_player_turn(self, loaded, before, after):
        """The room's adjudication already leaves the position at the next phase or player-turn (4.2, 4.3)."""
        return after, []

    def game_over(self, loaded, state) -> bool:
        """After the last Game-Turn, or at once when every Beachhead is gone (20 note)."""
        return state.position.turn > loaded.scenario.last_turn or self._report(loaded, state)["ended"]

    def victory(self, loaded, state, *, final: bool) -> dict:
        """The report every system gives (``points``: U.S. objectives owned and U.S. Casualty Points), the Victory
        Table's own reading (20) under ``legion``."""
        report = self._report(loaded, state)
        lines = [
            {"side": "US", "points": report["us_objectives"], "what": "objective hexes the U.S. player owns (5B)",
             "source": "20", "items": sorted(name for name, side in report["objectives"].items() if side == "US")},
            {"side": "JP", "points": report["casualty_points"], "what": "U.S. Casualty Points",
             "source": "20", "items": []},
        ]
        headline = (f"Victory (20): {report['level']} — {report['why']}." if final else
                    f"So far (20): the U.S. player owns {report['us_objectives']} objective hex(es), {report['casualty_points']} U.S. "
                    f"Casualty Points; the Victory Table would read {report['level']}.")
        return {
            "final": final, "points": {"US": report["us_objectives"], "JP": report["casualty_points"]}, "ratio": None,
            "level": report["level"] if final else None, "lines": lines, "headline": headline, "legion": report,
        }

    def _report(self, loaded, state) -> dict:
        from pbem.systems.legion.victory import victory

        return victory(state, loaded.scenario.victory)

    def record_problems(self, public: dict, rolls: list[dict], scenario: dict | None = None) -> list[str]:
        """A rejected player-turn rolls none; every combat and roll of a valid one is what the charts the genesis
        carries (``scenario``) give for its record and the committed dice (:mod:`.records`: 9A.1, 9A.2, 6B.2, 9J, 19A)."""
        from pbem.systems.legion.records import record_problems

        valid = (public.get("last") or {}).get("valid")
        if not valid and rolls:
            return [f"{len(rolls)} roll(s) made for a player-turn whose orders were rejected"]
        return record_problems(public, rolls, scenario)

    def bot_orders(self, view: dict, loaded, policy: str, seed: int | None, think: float | None = None) -> dict:
        """The room's bot (:mod:`.bot`): the simplest legal policy."""
        from pbem.systems.legion.bot import orders_for

        return orders_for(view, loaded)

    def with_suggestions(self, problems: list[Problem], state) -> list[Problem]:
        return list(problems)

    # -- hidden units: 19B limited intelligence and Dummies (:mod:`.views`) -----------------------------------------

    def hides(self, state) -> bool:
        """Limited intelligence is on (``exposed`` is a set, 19B)."""
        return state.exposed is not None

    def known_position(self, state, side: str):
        """19B.2 for the U.S. player (every Japanese counter he may not examine, Dummies among them, a marker in its
        hex), 19B.1 for the Japanese player (a U.S. stack not next to a Japanese unit shows its top unit alone)."""
        from pbem.systems.legion.views import known

        return known(state, side)

    def known_events(self, board, before, after, side: str, events: list[dict]) -> list[dict]:
        """19B.3 (a Japanese move told only as the Clear hexes it was sighted in), 19B.4 (losses once Exposed), no
        counter the side may not examine named, a Dummy told by its hex (19B.6)."""
        from pbem.systems.legion.views import known_events

        return known_events(after, side, events)

    def known_victory(self, loaded, state, side: str, victory: dict, *, final: bool) -> dict:
        """Until the game is over the U.S. view does not count the real Japanese units on the map (it would tell how
        many markers are Dummies, 19B.6), nor the level a Victory Table that counts them would read."""
        if final or side != "US" or not self.hides(state):
            return victory
        legion = {k: v for k, v in victory["legion"].items() if k != "japanese_units"}
        counts = any(line.japanese_units_max is not None or line.japanese_units_min is not None
                     for line in loaded.scenario.victory.levels)
        headline = victory["headline"]
        if counts:
            headline = (f"So far (20): the U.S. player owns {legion['us_objectives']} objective hex(es), "
                        f"{legion['casualty_points']} U.S. Casualty Points; the level counts Japanese units he cannot see (19B).")
            legion = {k: v for k, v in legion.items() if k not in ("level", "why")}
        return victory | {"legion": legion, "headline": headline}

    def judged_on(self, state, side: str):
        """Under limited intelligence each side's orders on its own view (19B.1 hides U.S. units from the Japanese
        player as 19B.2 hides Japanese ones from the U.S. player)."""
        return self.known_position(state, side) if self.hides(state) else state

    def as_carried(self, orders, state, side: str):
        """Orders name a target by its hex (9): nothing to read."""
        return orders

    def committed_position(self, state):
        """Under limited intelligence every counter one side may not examine as a marker: each side works it out
        from its own view (:func:`.views.common`)."""
        from pbem.systems.legion.views import common

        return common(state) if self.hides(state) else state

    def view_position(self, state_json: dict, side: str) -> dict:
        if state_json.get("exposed") is None:
            return state_json
        return self.state_to_json(self.committed_position(self.state_from_json(state_json)))

    def sees_everything(self, side: str) -> bool:
        """Neither side: 19B.2 hides Japanese counters from the U.S. player, 19B.1 U.S. units beneath a stack's top from
        the Japanese player."""
        return False

    def awaits_secret_setup(self, state) -> bool:
        """A Legion scenario prints every set-up hex: the opening's counters are committed, no secret set-up."""
        return False

    # -- hidden units with no referee (:mod:`.blind`) -------------------------------------------------------------

    def committed_pieces(self, state, key: bytes) -> dict[str, dict]:
        from pbem.systems.legion.blind import pieces

        return pieces(state, key)

    def view_markers(self, view: dict) -> list[str]:
        from pbem.systems.legion.blind import view_markers

        return view_markers(view)

    def marker_hex(self, marker: str) -> str:
        return marker.split(".")[0]

    def blind_exposure(self, board, before, after, events: list[dict], side: str, keys: tuple[bytes, bytes]):
        from pbem.systems.legion.blind import exposure

        return exposure(before, after, events, side, keys)

    def order_of_battle(self, loaded) -> dict[str, dict]:
        from pbem.systems.legion.blind import piece

        return {u.id: piece(u) for u in loaded.scenario.units if u.side == "JP" and not u.is_dummy}

    def dummies_removed(self, events: list[dict]) -> list[str]:
        return [e["hex"] for e in events if e.get("type") == "dummy_revealed"]

    def blind_public_checks(self) -> frozenset[str]:
        """None of the checks that read the SPI rules (their set-up zone, move bound, exposures, combat strengths):
        the audit's replay catches what they would (docs/hidden-units.md, the Legion rows)."""
        return frozenset()


SYSTEM = LegionSystem()
