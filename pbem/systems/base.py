"""The seam for rules systems: what the game layer, the bot, the views and the audits ask of a game's rules.

pbem plays every rules system through the same files, dice and modes; what
differs is the rules themselves — the opening position, which orders are
legal (every problem with its rule case), what a player-turn does on the
dice committed for it, and who has won.  A rules system is one room
(``pbem/systems/<name>/``, with whatever modules it needs) holding one object
that answers the questions below; the registry (:mod:`pbem.systems`) finds
it by the name a scenario gives and the genesis pins (docs/PROTOCOL.md,
"Rules systems").  The callers hand back what the system gave them (the
loaded scenario, the position, the orders, the check) without looking inside:
only a system's own room knows its shapes.

Every call is pure: no files, no clock, no randomness except the dice passed
in (the engine's rule, README "Standards").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

# The record every system reports a broken rule with (rule case, unit, sentence), and the dice every system
# rolls: defined in the first system's room, which is older than the seam, and shared by all.
from pbem.engine.dice import DiceSource
from pbem.engine.problems import Problem

__all__ = ["Checked", "DiceSource", "PlayerTurn", "Problem", "RulesSystem"]


@dataclass(frozen=True)
class Checked:
    """Orders checked on a position: every problem with its rule case, and what the system may reuse
    (``handle``) when it carries out the same orders on the same position straight after."""

    problems: tuple[Problem, ...]
    handle: Any = None

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class PlayerTurn:
    """What one player-turn did.  When ``valid`` is false nothing was applied and ``state`` is the position before.

    ``events`` and ``combats`` are plain JSON, as the turn file records them.
    """

    valid: bool
    problems: tuple[Problem, ...]
    events: tuple[dict, ...]
    combats: tuple[dict, ...]
    state: Any


@runtime_checkable
class RulesSystem(Protocol):
    """One rules system: a name the scenario and the genesis give, and the rules of its games."""

    name: str
    """How a scenario (``"system"``) and a genesis (``ruleset.system``) name it; the SPI system is named by their absence."""

    title: str
    """The rules it plays, for people (``pbem scenario list``, the docs)."""

    options: frozenset[str]
    """The game options (:data:`pbem.model.common.OPTIONS`: ``hidden-units``) a game of this system may be started with;
    ``pbem new`` and ``pbem demo`` refuse any other (:func:`pbem.systems.refuse_options`)."""

    def load_scenario(self, document: dict, path: Path, *, verified: bool = False) -> Any:
        """A scenario document (a file's, or the one a genesis carries) checked and built: a
        :class:`~pbem.loading.datafiles.LoadedScenario` whose ``system`` is this system's name.  Bad input raises
        :class:`~pbem.errors.BadInput` naming the file and the field."""

    def map_scene(self, view: dict, loaded: Any, *, centre: str | None = None, radius: int | None = None,
                  show_zoc: bool = False, show_events: bool = True, objectives: bool = True) -> Any:
        """A side's sealed ``view`` as a map: the :class:`~pbem.render.scene.Scene` that ``pbem show`` (terminal,
        SVG, offline page) and the ``pbem play`` page draw, every renderer the same.

        Asked of the system because only its room knows its board (the hexes' terrain and features, the hexsides,
        roads and places: :class:`~pbem.render.scene.DrawnBoard`), what is printed on its counters and which
        markers lie on them (a :class:`~pbem.render.scene.Counter`, or the room's own subclass), what else a hex
        holds (Legion's hex ownership, 5B) and how it is all read (a :class:`~pbem.render.scene.MapKey`: terrain
        letters and colours, the legend).  Nothing but the view and the scenario goes in, so no map shows more
        than the side may see.  ``centre``/``radius``: only the hexes that near (BadInput naming ``--around``
        when ``centre`` is not on the map); ``objectives``: the scenario's objective hexes drawn (``pbem show``); false
        (the play page), those the view's outlook lists — a system whose objectives are public rules may draw them anyway."""

    def planner(self, view: dict, loaded: Any, source: str) -> Any:
        """What the ``pbem play`` page asks while the side to move writes orders on its ``view`` (``source``: the
        orders file, for messages).  A planner whose ``clicks`` is true answers the clicking page
        (:class:`pbem.game.planning.Planner`: reach, paths, odds, set-up); one whose ``clicks`` is false
        (:class:`pbem.game.orders_text.OrdersText`) checks orders written as JSON with :meth:`read_orders` and
        :meth:`check_orders`, every problem with its rule case, so that any system is played on the page."""

    def carried_document(self, loaded: Any, document: dict) -> dict:
        """The scenario document as a genesis carries it: self-contained, every file the scenario names beside it
        (a map, a chart) read in, so that every party plays with what the referee loaded and its hash covers it."""

    def catalogue_entry(self, loaded: Any, *, full: bool) -> dict:
        """What ``pbem scenario list`` (``full`` false: ``id``, ``title``, ``kind``, ``first_turn``, ``last_turn``,
        ``first_player``, ``edition``) and ``pbem scenario show`` (``full``: with ``description``, ``units`` and the
        rest the system's scenarios hold) print of a scenario, as plain JSON; ``describe`` words it."""

    def describe(self, entry: dict) -> list[str]:
        """:meth:`catalogue_entry` (``full``) in words, for people."""

    def state_to_json(self, state: Any) -> dict:
        """A position as canonical-JSON-ready data (the same position always the same bytes: every turn file commits
        to it).  A position of any system but SPI's carries ``system``: its name, by which :meth:`state_from_json` of
        the same system is found again (SPI positions carry none, so their bytes are what they were)."""

    def state_from_json(self, document: dict) -> Any:
        """A position :meth:`state_to_json` wrote (ValueError, KeyError or TypeError when it is malformed: the caller
        names the file)."""

    def tell_view(self, view: dict, outlook: dict | None) -> str:
        """A side's sealed view in words (``pbem view``), from its plain JSON alone (no model built); ``outlook``: what the
        scenario holds in store (:func:`pbem.game.views.outlook`)."""

    def tell_last(self, last: dict) -> list[str]:
        """The last player-turn of a view (its ``last``: valid or not, problems, events, combats) in words, as
        :meth:`tell_view` tells it: the judge's turn-file mail quotes it, and only the system knows its events."""

    def orders_template(self, view: dict, document: dict) -> tuple[dict, list[str]]:
        """An orders skeleton for the side to move and hints (``pbem orders template``), from its view and the scenario
        document the genesis carries, as plain JSON."""

    def pinned_ruleset(self, loaded: Any, edition: str | None) -> dict:
        """The rules a new game is played by, as its genesis signs them (edition, exclusive rules, and the system's
        name unless it is the SPI system)."""

    def rules_named(self, ruleset: dict) -> str | None:
        """How a game's rules are named for people (``pbem status``' first line), from the ruleset its genesis pins: the
        SPI system's edition (``dg-2009``), a system of one edition its own name; never another system's field as None."""

    def rules(self, ruleset: dict) -> Any:
        """The game's rules as the system reads them from the ruleset its signed files carry (ValueError or TypeError
        when they are malformed: the caller names the file)."""

    def opening(self, loaded: Any, *, hidden: bool, options: list[str] | None = None) -> Any:
        """The opening position of the scenario (``hidden``: with hidden units; ``options``: the game's, which may name
        the way they are hidden — a fog variant the system plays)."""

    def read_orders(self, document: Any, source: str) -> Any:
        """A side's orders document checked against the system's orders schema (BadInput naming ``source`` and the field)."""

    def check_orders(self, loaded: Any, ruleset: dict, state: Any, orders: Any) -> Checked:
        """Every problem with ``orders`` on ``state`` (the position the side to move may know), each with its rule case."""

    def adjudicate(self, loaded: Any, ruleset: dict, state: Any, orders: Any, dice: DiceSource, *,
                   checked: Checked | None = None) -> PlayerTurn:
        """Carry out one player-turn on the committed ``dice``; ``checked``: :meth:`check_orders` of these very orders on
        this very position, when the caller has just asked it."""

    def end_player_turn(self, loaded: Any, before: Any, after: Any) -> tuple[Any, list[dict]]:
        """The position handed to the next player-turn after a valid one (the end of a Game-Turn, arrivals), and its events."""

    def game_over(self, loaded: Any, state: Any) -> bool:
        """Whether the game has ended on ``state``."""

    def victory(self, loaded: Any, state: Any, *, final: bool) -> dict:
        """The victory report on ``state`` as plain JSON (``final``: the game is over, the level is decided)."""

    def record_problems(self, public: dict, rolls: list[dict], scenario: dict | None = None) -> list[str]:
        """Where a signed public record of a player-turn (``public``, its turn file's ``rolls``) is not what the
        system's tables give, from public data alone: what ``pbem verify`` checks of every turn file without a key.
        ``scenario``: the scenario document the game's genesis carries (a system whose charts are data reads them
        there), or None when the caller has none (no genesis among the files): a system checks then what needs none."""

    def bot_orders(self, view: dict, loaded: Any, policy: str, seed: int | None, think: float | None = None) -> dict:
        """Orders for the side whose sealed ``view`` this is, by the system's bot with ``policy`` (an NMR, ``pbem bot``,
        ``pbem demo``): valid by the system's own check, and the same for the same view, policy and seed."""

    def with_suggestions(self, problems: list[Problem], state: Any) -> list[Problem]:
        """``problems`` with what the player might do instead, where the system knows (what ``pbem validate`` prints)."""
