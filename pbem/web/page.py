"""The page: the renderer's SVG of the player's own view, wrapped with the orders panel and the script.

The map is :func:`pbem.render.svg.render_svg` unchanged, of the scene the
game's rules system gives (:meth:`~pbem.systems.base.RulesSystem.map_scene`);
this page only adds an overlay of its own on top (reachable hexes, planned
paths) and the side panel.  The script (``play.js``) sends every click to the
app and draws the answers; it knows no rule.  A system whose planner offers
no clicking (``clicks`` false) gets the same map with the orders written as
JSON in a text area (``play_text.js``), checked by the system at each change.
"""

from __future__ import annotations

import html
import json
from importlib.resources import files
from typing import Any

from pbem.errors import PbemError
from pbem.model.common import OFFMAP
from pbem.web.session import Sitting, addressee


def _asset(name: str) -> str:
    return files("pbem.web").joinpath(name).read_text(encoding="utf-8")


def _facts(sitting: Sitting) -> dict[str, Any]:
    """What the script needs to know of the view: the side, its units, the set-up limits; no rule.

    Not the orders: the page is drawn once per sitting, and the script asks
    for the orders as they stand each time it loads (a reload keeps them)."""
    planner = sitting.planner
    state = planner.state
    mine = {}
    for uid, unit in planner.units.items():
        if unit.side != planner.side:
            continue
        where = state.locations.get(uid, "")
        mine[uid] = {"id": uid, "kind": unit.kind, "hex": where, "waiting": where == OFFMAP, "entry": unit.entry,
                     "artillery": unit.is_artillery, "dummy": unit.is_dummy, "move": unit.move,
                     "name": unit.name or ""}
    facts: dict[str, Any] = {
        "side": planner.side,
        "seq": sitting.turn.seq,
        "setup": planner.setting_up,
        "edition": planner.ruleset.edition,
        "hidden": state.hidden is not None,
        "gsp": state.position.gsp_of(planner.side),
        "mine": mine,
        "orders_path": str(sitting.orders_path),
        "defense_choices": planner.defense_choices(),
        "markers": planner.marker_hexes() if state.hidden is not None else [],
    }
    facts["submitted"] = _submitted(sitting)
    if planner.setting_up:
        facts["deployment"] = planner.deployment()
    return facts


def _submitted(sitting: Sitting) -> dict[str, Any] | None:
    """The player's latest signed answer to this turn file, from the receipt ``pbem submit`` keeps, or None."""
    from pbem.game.receipts import read_receipt
    from pbem.game.status import submission_mail
    from pbem.loading.folder import folder_of, receipt_name

    turn = sitting.turn
    try:
        record = read_receipt(folder_of(turn.source) / receipt_name(turn.seq, sitting.side))
    except PbemError:
        return None  # an unreadable receipt is pbem submit's to report, not the page's
    if not record or not record["revisions"] or record["answers"]["turn"] != turn.digest:
        return None
    latest = record["revisions"][-1]
    to, _ = submission_mail(turn, sitting.side, sitting.turn_path.parent / latest["file"], latest["revision"])
    return {"revision": latest["revision"], "file": latest["file"], "to": addressee(to)}


def _scene(sitting: Sitting):
    """The side's view as its rules system draws it (the objectives of the view's outlook, as the page always drew)."""
    from pbem.systems import system_of

    planner = sitting.planner
    return system_of(planner.loaded).map_scene(planner.view, planner.loaded, objectives=False)


def page_html(sitting: Sitting) -> str:
    from pbem.render.svg import render_svg

    planner = sitting.planner
    if not planner.clicks:
        return _text_page(sitting)
    scene = _scene(sitting)
    data = json.dumps(_facts(sitting), ensure_ascii=False).replace("</", "<\\/")
    title = f"pbem play: turn file {sitting.turn.seq}, {planner.side} orders"
    what = "secret set-up" if planner.setting_up else f"Game-Turn {planner.state.position.turn}"
    aside = """<section id="tools"><div id="modes"></div>
<button id="undo" type="button">Undo</button>
<button id="save-orders" type="button">Save</button>
<button id="load-orders" type="button">Load saved</button>
<button id="submit-orders" type="button">Submit</button>
<div id="status" role="status"></div></section>
<section id="selection"><h2>Selected</h2><div id="selected">click one of your counters</div></section>
<section id="panel-move"><h2>Moves</h2><ol id="moves"></ol><h3>Reinforcements</h3><div id="waiting"></div>
<h3>Your units on the map: <span id="on-map-count"></span></h3><div id="on-map"></div></section>
<section id="panel-attack"><h2>Attacks</h2><button id="new-attack" type="button">New attack</button><div id="attacks"></div>
<div id="owed"></div></section>
<section id="panel-setup"><h2>Secret set-up (19B.2, 19B.6)</h2><div id="setup-limits"></div><div id="setup-units"></div>
<button id="place-dummies" type="button">Place dummies</button> <button id="as-listed" type="button">Each unit on its listed hex</button><ol id="dummies"></ol></section>
<section id="panel-defense"><h2>Defense for the enemy's next player-turn (spi-1975)</h2>
<p>Click one of your artillery units, then the unit it gives Final Protective Fire to (8.4). Click a unit, then
shift-click hexes for the route it retreats by (7.7).</p><ol id="fpf"></ol>
<button id="no-fpf" type="button">No FPF at all</button> <button id="fpf-by-system" type="button">Let the system choose</button>
<h3>Retreat routes</h3><ol id="retreats"></ol>
<h3>Advances after a retreating attacker (7.9)</h3><p>Click one of your units, then how deep it follows.</p><ol id="advances"></ol>
<div id="gsp-fpf-box"><h3>Ground Support Points as FPF (9.1)</h3><p>Click one of your units, then "+1 Ground Support as FPF".</p><ol id="gsp-fpf"></ol></div></section>
<section id="panel-intel"><h2>Intelligence (19B.7)</h2><label><input type="checkbox" id="intel-roll"> spend a Ground Support Point on an intelligence roll</label>
<h3>Priority of hexes</h3><p>In <b>Intelligence</b> mode, click hidden markers in the order their units should be exposed; the list stands until you send a new one.</p>
<ol id="priority"></ol><button id="priority-clear" type="button">Empty the list</button> <button id="priority-keep" type="button">Keep the last list</button></section>
<section><h2>Note to your opponent</h2><textarea id="note" rows="2" maxlength="2000"></textarea></section>
<section><h2>Problems</h2><ul id="problems"></ul></section>
"""
    status = f"{scene.status} Orders: {what}, saved to {sitting.orders_path}"
    return _document(title, status, render_svg(scene), aside, data, "play.js")


def _text_page(sitting: Sitting) -> str:
    """The page for orders written as JSON: the map, the side's counters, the text area, the system's problems."""
    from pbem.render.svg import render_svg

    planner = sitting.planner
    scene = _scene(sitting)
    facts = {"side": planner.side, "seq": sitting.turn.seq, "orders_path": str(sitting.orders_path),
             "blank": planner.blank, "submitted": _submitted(sitting)}
    data = json.dumps(facts, ensure_ascii=False).replace("</", "<\\/")
    title = f"pbem play: turn file {sitting.turn.seq}, {planner.side} orders"
    rows = "\n".join(
        f'<tr class="unit-row" data-unit="{html.escape(c.id)}" data-hex="{html.escape(c.hex)}"><td>{html.escape(c.id)}</td>'
        f"<td>{html.escape(c.kind_name or '')}</td><td>{html.escape(c.strengths)}</td><td>{html.escape(c.hex)}</td>"
        f"<td>{html.escape(c.flags.strip())}</td></tr>"
        for c in scene.roster() if c.side == planner.side)
    hints = "".join(f"<li>{html.escape(h)}</li>" for h in planner.hints)
    aside = f"""<section id="tools"><div id="modes"></div><button id="done" type="button">Done</button>
<button id="check-orders" type="button">Check</button>
<button id="save-orders" type="button">Save</button>
<button id="load-orders" type="button">Load saved</button>
<button id="submit-orders" type="button">Submit</button>
<div id="status" role="status"></div></section>
<section id="panel-text"><h2>Orders (JSON)</h2>
<p>Write this phase's orders as a JSON object (the shape <code>pbem orders template</code> gives), or click: a mode above,
then the map (a move: your counter, then each hex entered; an attack: the hex attacked, then each attacker; Done ends
one). Clicks only write into the text; the game's rules system checks it as you type. Anything else (support, advances,
losses, retreat routes, a note) is written here.</p>
<ul id="hints">{hints}</ul>
<textarea id="orders-text" rows="16" spellcheck="false"></textarea></section>
<section><h2>Problems</h2><ul id="problems"></ul></section>
<section id="panel-units"><h2>Your units</h2><table><thead><tr><th>unit</th><th>type</th><th>strengths</th><th>hex</th><th>markers</th></tr></thead>
<tbody>
{rows}
</tbody></table></section>
"""
    status = f"{scene.status} Orders saved to {sitting.orders_path}"
    style = "\n#orders-text { width: 100%; box-sizing: border-box; font: 12px/1.35 monospace; }\n"
    return _document(title, status, render_svg(scene), aside, data, "play_text.js", style)


def _document(title: str, status: str, svg: str, aside: str, data: str, script: str, style: str = "") -> str:
    """A play page: the title, the status line under it, the map, the side panel (``aside``, before the mail box every
    page has), the facts its script reads, and the script after the shared ``page_api.js``; ``style`` after the
    shared stylesheet."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_asset("play.css")}{style}</style>
</head>
<body>
<header><h1>{html.escape(title)}</h1><div>{html.escape(status)}</div></header>
<main>
<div id="map">{svg}</div>
<aside>
{aside}<section id="mail-box" hidden><h2>Mail to send</h2><pre id="mail"></pre></section>
</aside>
</main>
<script type="application/json" id="pbem-play">{data}</script>
<script>{_asset("page_api.js")}
{_asset(script)}</script>
</body>
</html>
"""
