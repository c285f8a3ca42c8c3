"""One self-contained offline page around the SVG map: no network, no build step.

Hover a counter for its details; click a hex for its terrain, costs, features
and who holds it; toggle the enemy's zones of control and the last
player-turn's events; a side panel lists the units and tells the last
player-turn.  Everything the page knows is in the page, taken from the same
:class:`~pbem.render.scene.Scene` as the SVG.
"""

from __future__ import annotations

import html
import json

from pbem.render.scene import Scene
from pbem.render.svg import render_svg

PAGE_STYLE = """
body { font: 14px/1.4 sans-serif; margin: 0; color: #222; background: #f4f2ea; }
header { padding: 8px 14px; background: #2c3e50; color: #fff; }
header h1 { font-size: 17px; margin: 0; }
main { display: flex; gap: 12px; padding: 10px; align-items: flex-start; }
#map { flex: 0 0 auto; background: #fff; border: 1px solid #bbb; overflow: auto; max-width: 70vw; max-height: 88vh; }
aside { flex: 1 1 320px; min-width: 280px; }
aside section { background: #fff; border: 1px solid #ccc; margin-bottom: 10px; padding: 8px 10px; }
aside h2 { font-size: 14px; margin: 0 0 6px; }
table { border-collapse: collapse; width: 100%; font-size: 12px; }
td, th { text-align: left; padding: 2px 4px; border-bottom: 1px solid #eee; }
tr.unit-row { cursor: pointer; }
tr.unit-row:hover, tr.unit-row.selected { background: #fdf2c5; }
.ways, .hexsides, .entries, .places, .zoc-layer, .events-layer, .hex-id, .title, .status { pointer-events: none; }
.hex { cursor: pointer; }
.hex.selected { stroke: #000; stroke-width: 3; }
.counter { cursor: help; }
.counter.selected rect.body { stroke: #f1c40f; stroke-width: 3; }
dl { margin: 0; display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; font-size: 13px; }
dt { font-weight: bold; }
ol { margin: 0; padding-left: 18px; font-size: 12px; }
"""

PAGE_SCRIPT = """
const data = JSON.parse(document.getElementById('pbem-data').textContent);
const svg = document.querySelector('#map svg');
function fill(id, entries) {
  const box = document.getElementById(id);
  box.innerHTML = '';
  for (const [key, value] of entries) {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length)) continue;
    const dt = document.createElement('dt'); dt.textContent = key;
    const dd = document.createElement('dd'); dd.textContent = Array.isArray(value) ? value.join('; ') : value;
    box.append(dt, dd);
  }
}
function showUnit(id) {
  const u = data.units[id];
  if (!u) return;
  fill('unit-info', Object.entries(u));
}
function selectHex(hex) {
  const info = data.hexes[hex];
  if (!info) return;
  svg.querySelectorAll('.hex.selected').forEach(e => e.classList.remove('selected'));
  const poly = svg.querySelector('.hex[data-hex="' + hex + '"]');
  if (poly) poly.classList.add('selected');
  fill('hex-info', [['hex', info.hex], ['terrain', info.terrain], ['cost', info.cost], ['CRT line', info.line],
                    ['armor', info.armor], ['features', info.features], ['places', info.places],
                    ['objectives', info.objectives], ['control', info.control], ['units', info.units]]);
}
svg.addEventListener('click', ev => {
  const unit = ev.target.closest('[data-unit]');
  if (unit) showUnit(unit.dataset.unit);
  const hit = ev.target.closest('[data-hex]');
  if (hit) selectHex(hit.dataset.hex);
});
svg.addEventListener('mouseover', ev => {
  const unit = ev.target.closest('.counter');
  if (unit) showUnit(unit.dataset.unit);
});
document.querySelectorAll('tr.unit-row').forEach(row => row.addEventListener('click', () => {
  document.querySelectorAll('tr.unit-row.selected').forEach(r => r.classList.remove('selected'));
  row.classList.add('selected');
  showUnit(row.dataset.unit);
  if (data.hexes[row.dataset.hex]) selectHex(row.dataset.hex);
}));
function toggle(boxId, layer) {
  const box = document.getElementById(boxId);
  const apply = () => svg.querySelectorAll(layer).forEach(g => g.setAttribute('display', box.checked ? 'inline' : 'none'));
  box.addEventListener('change', apply);
  apply();
}
toggle('show-zoc', '.zoc-layer');
toggle('show-events', '.events-layer');
const ids = document.getElementById('show-ids');
const showIds = () => svg.classList.toggle('ids', ids.checked);
ids.addEventListener('change', showIds);
showIds();
// Open on the holder's own units, not on the map's corner (issue 20).
(function openOnOwnUnits() {
  const own = [...svg.querySelectorAll('.counter.side-' + data.holder)];
  const box = document.getElementById('map');
  if (!own.length || !box) return;
  const frame = box.getBoundingClientRect();
  const at = own.map(counter => { const r = counter.getBoundingClientRect();
    return [r.left + r.width / 2 - frame.left + box.scrollLeft, r.top + r.height / 2 - frame.top + box.scrollTop]; });
  // The window's worth of map holding the most of them: units far apart (two beaches) are not averaged into empty sea.
  const near = ([x, y]) => at.filter(([u, v]) => Math.abs(u - x) <= box.clientWidth / 2.2 && Math.abs(v - y) <= box.clientHeight / 2.2);
  const best = at.map(near).reduce((a, b) => (b.length > a.length ? b : a), []);
  const x = best.reduce((s, p) => s + p[0], 0) / best.length, y = best.reduce((s, p) => s + p[1], 0) / best.length;
  box.scrollLeft = Math.max(0, x - box.clientWidth / 2);
  box.scrollTop = Math.max(0, y - box.clientHeight / 2);
})();
"""


def _data(scene: Scene) -> str:
    """The page's facts as JSON that is safe inside a ``<script>`` element."""
    facts = {
        "hexes": {h: scene.hex_info(h) for h in scene.shown},
        "units": {c.id: c.details() for c in scene.roster()},
        "holder": scene.holder,
    }
    return json.dumps(facts, ensure_ascii=False).replace("</", "<\\/")


def _unit_rows(scene: Scene) -> str:
    rows = []
    for c in scene.roster():
        kind = c.kind_name
        where = {"offmap": "off map", "eliminated": "eliminated", "exited": "left the map (16.13)"}.get(c.hex, c.hex)
        if c.exposed:
            where += " (exposed: the enemy sees it)"
        rows.append(
            f'<tr class="unit-row" data-unit="{html.escape(c.id)}" data-hex="{html.escape(c.hex)}">'
            f"<td>{html.escape(c.side)}</td><td>{html.escape(c.id)}</td><td>{html.escape(kind or '')}</td>"
            f"<td>{html.escape(c.strengths)}</td><td>{html.escape(where)}</td></tr>"
        )
    return "\n".join(rows)


def render_html(scene: Scene) -> str:
    """The page: the map, toggles, the hex and unit panels, the unit list and the last player-turn."""
    report = "".join(f"<li>{html.escape(line)}</li>" for line in scene.report) or "<li>Nothing yet: this is the opening position.</li>"
    zoc_label = f"{scene.enemy} zones of control" if scene.enemy else "zones of control"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(scene.title)}</title>
<style>{PAGE_STYLE}</style>
</head>
<body>
<header><h1>{html.escape(scene.title)}</h1><div>{html.escape(scene.status)}</div></header>
<main>
<div id="map">{render_svg(scene)}</div>
<aside>
<section><h2>Show</h2>
<label><input type="checkbox" id="show-zoc"{" checked" if scene.show_zoc else ""}> {html.escape(zoc_label)}</label><br>
<label><input type="checkbox" id="show-events"{" checked" if scene.show_events else ""}> last player-turn's moves and combats</label><br>
<label><input type="checkbox" id="show-ids"> unit ids on the counters</label>
</section>
<section><h2>Hex</h2><dl id="hex-info"><dt>click a hex</dt><dd></dd></dl></section>
<section><h2>Unit</h2><dl id="unit-info"><dt>point at a counter</dt><dd></dd></dl></section>
<section><h2>Units</h2><table><thead><tr><th>side</th><th>unit</th><th>kind</th><th>strengths</th><th>hex</th></tr></thead>
<tbody>
{_unit_rows(scene)}
</tbody></table></section>
<section><h2>Last player-turn</h2><ol id="report">{report}</ol></section>
</aside>
</main>
<script type="application/json" id="pbem-data">{_data(scene)}</script>
<script>{PAGE_SCRIPT}</script>
</body>
</html>
"""
