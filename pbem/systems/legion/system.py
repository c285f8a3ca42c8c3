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

What is not yet carried through the seam: the hidden-units option (19B
limited intelligence: the room's :mod:`.views` build each side's view, but
the game layer's fog, :mod:`pbem.game.fog`, is the SPI system's, so a game
of this system refuses the option), the defender's standing choices written
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
    options: frozenset[str] = frozenset()  # hidden-units (19B) waits for the game layer's views to ask the room (:mod:`.views`)

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
        """The scenario's set-up (5B ownership from the ZOCs).  19B limited intelligence is the hidden-units option,
        which the game layer does not yet carry for this system (its fog is the SPI system's): refused."""
        from pbem.systems.legion.opening import opening

        if hidden:
            raise BadInput(f"the hidden-units option is not yet played with the {NAME} rules system (19B: its limited "
                           "intelligence is in the rules room, not yet in the game's views)", field="--option",
                           hint="start the game without --option hidden-units (docs/legion.md, 'Playing a game')")
        state = opening(loaded.board, loaded.scenario.model_copy(update={"limited_intelligence": False}))
        return state

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

        checked = checked if checked is not None else self.check_orders(loaded, ruleset, state, orders)
        if not checked.valid:
            return PlayerTurn(False, checked.problems, (), (), state)
        result = adjudicate(loaded.board, state, orders, dice, None, cp_per_unit=loaded.scenario.victory.cp_per_unit)
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


SYSTEM = LegionSystem()
