// pbem play: clicks become orders; every answer (reach, paths, problems, odds) comes from the engine via the app.
// Sent after page_api.js in one script (its "use strict", base, $, api and say hold here too).
const D = JSON.parse(document.getElementById('pbem-play').textContent);
const svg = document.querySelector('#map svg');
const SVGNS = 'http://www.w3.org/2000/svg';

let doc = normalise({});
let undoStack = [];
let mode = D.setup ? 'setup' : 'move';
let selected = null;      // a unit of mine
let reach = null;         // the engine's answer for the selected unit
let laying = null;        // {unit, hexes}: a path laid by shift-clicks
let currentAttack = null; // index into doc.attacks
let fpfGun = null;        // artillery picked for an FPF entry (spi-1975)
let dummyMode = false;
let analysis = null;
let busy = Promise.resolve();

function normalise(d) {
  const out = JSON.parse(JSON.stringify(d));
  if (D.setup) {
    out.deployment = out.deployment || {units: {}, dummies: []};
    out.deployment.units = out.deployment.units || {};
    out.deployment.dummies = out.deployment.dummies || [];
  } else {
    out.moves = out.moves || [];
    out.attacks = out.attacks || [];
  }
  return out;
}

// What goes to the engine: attacks still without a target are left out until they have one.
function cleaned() {
  const out = JSON.parse(JSON.stringify(doc));
  if (out.attacks) out.attacks = out.attacks.filter(a => a.defenders && a.defenders.length);
  if (out.note === '') delete out.note;
  return out;
}

function change(mutator) {
  undoStack.push(JSON.stringify(doc));
  mutator();
  return refresh();
}

function refresh() {
  busy = busy.then(async () => {
    const r = await api('check', {document: cleaned()});
    if (r.status !== 200) { say(r.data.error || 'check failed', true); return; }
    analysis = r.data.analysis;
    draw();
  });
  return busy;
}

// -- drawing -------------------------------------------------------------------------------
function counters(u) { return svg.querySelectorAll('.counter[data-unit="' + u + '"], .ghost-counter[data-unit="' + u + '"]'); }
function hexPoly(h) { return svg.querySelector('.hex[data-hex="' + h + '"]'); }
function centre(h) {
  const p = hexPoly(h); if (!p) return null;
  const b = p.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2];
}
function overlay() {
  let g = svg.querySelector('#play-overlay');
  if (!g) { g = document.createElementNS(SVGNS, 'g'); g.id = 'play-overlay'; svg.appendChild(g); }
  return g;
}
function el(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function html(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function button(text, attrs, onclick) { const b = html('button', Object.assign({type: 'button'}, attrs), text); b.addEventListener('click', onclick); return b; }

function markHexes(table, cls) {
  svg.querySelectorAll('.hex.reachable, .hex.allowed').forEach(p => { p.classList.remove('reachable', 'allowed'); p.removeAttribute('data-mp'); });
  const g = overlay();
  for (const [h, mp] of Object.entries(table)) {
    const p = hexPoly(h); if (!p) continue;
    p.classList.add(cls);
    if (mp !== null) p.setAttribute('data-mp', mp);
    g.appendChild(el('polygon', {points: p.getAttribute('points'), class: cls === 'reachable' ? 'reach' : 'allowed', 'data-hex': h}));
    if (mp !== null) { const c = centre(h); g.appendChild(el('text', {x: c[0], y: c[1] + 22, class: 'mp', 'data-hex': h}, mp + ' MP')); }
  }
}

function draw() {
  const g = overlay(); g.innerHTML = '';
  svg.querySelectorAll('.counter').forEach(c => c.classList.remove('selected', 'in-attack', 'problem', 'must-attack', 'moved'));
  if (D.setup) drawSetup(); else drawTurn();
  if (selected) counters(selected).forEach(c => c.classList.add('selected'));
  drawProblems();
  $('note').value = doc.note || '';
  for (const m of ['move', 'attack', 'setup', 'defense', 'intel']) { const p = $('panel-' + m); if (p) p.hidden = !panelShown(m); }
  $('modes').querySelectorAll('button').forEach(b => b.classList.toggle('on', b.dataset.mode === mode));
}

function panelShown(m) {
  if (D.setup) return m === 'setup';
  if (m === 'setup') return false;
  if (m === 'defense') return D.edition === 'spi-1975';
  if (m === 'intel') return D.hidden && D.side === 'US';
  return true;
}

function drawTurn() {
  const g = overlay();
  if (reach && mode === 'move') markHexes(reach.hexes, 'reachable'); else markHexes({}, 'reachable');
  // planned moves: a dashed path and a ghost counter where the unit ends
  const list = $('moves'); list.innerHTML = '';
  doc.moves.forEach((m, i) => {
    const u = D.mine[m.unit] || {hex: ''};
    const hexes = (u.waiting ? [] : [u.hex]).concat(m.enter ? [m.enter] : [], m.path);
    const pts = hexes.map(centre).filter(Boolean);
    if (pts.length > 1) g.appendChild(el('polyline', {class: 'plan', points: pts.map(p => p.join(',')).join(' '), 'data-unit': m.unit}));
    const broken = problemsOf(m.unit);
    if (broken.length && pts.length > 1) g.lastChild.classList.add('bad');
    let end = pts[pts.length - 1];
    const endHex = hexes[hexes.length - 1];
    if (end && hexes.length > (u.waiting ? 0 : 1)) {
      // the unit where its move ends: a counter of the page's own, clickable like the renderer's; where that hex
      // holds another side's counter (an illegal move, 5.12) it is drawn small at the hex's corner and lets clicks
      // through, so the counter under it stays in sight and clickable
      const onEnemy = broken.length && enemyAt(endHex);
      if (onEnemy) end = [end[0] + 17, end[1] - 17];
      const ghost = el('g', {class: 'ghost-counter' + (onEnemy ? ' aside' : ''), 'data-unit': m.unit, 'data-hex': endHex});
      ghost.appendChild(el('circle', {class: 'ghost', cx: end[0], cy: end[1], r: onEnemy ? 9 : 13}));
      ghost.appendChild(el('text', {class: 'ghost-label', x: end[0], y: end[1] + 3}, m.unit.split('-').slice(1).join('-')));
      g.appendChild(ghost);
      svg.querySelectorAll('.counter[data-unit="' + m.unit + '"]').forEach(c => c.classList.add('moved'));
    }
    const at = pts[pts.length - 1];
    if (broken.length && at) {
      // the broken rule where the player looks: on the map, under the hex the move ends in
      const mark = el('g', {class: 'illegal-mark', 'data-unit': m.unit, 'data-hex': endHex});
      const text = '✕ rule ' + broken.map(p => p.rule).filter((r, k, a) => a.indexOf(r) === k).join(', ');
      const w = 7 * text.length + 8;
      mark.appendChild(el('rect', {x: at[0] - w / 2, y: at[1] + 18, width: w, height: 16, rx: 3}));
      mark.appendChild(el('text', {x: at[0], y: at[1] + 30}, text));
      g.appendChild(mark);
    }
    const li = html('li', {'data-move': m.unit});
    li.append((m.enter ? m.unit + ' enters at ' + m.enter : m.unit) + (m.path.length ? ' → ' + m.path.join(' ') : '') + (m.exit ? ' and leaves the map' : '') + ' ');
    li.append(button('✕', {'data-remove-move': m.unit, title: 'cancel this move'}, () => change(() => { doc.moves.splice(i, 1); })));
    list.append(li);
  });
  const waiting = $('waiting'); waiting.innerHTML = '';
  for (const u of Object.values(D.mine)) {
    if (!u.waiting) continue;
    const how = u.kind === 'airassault' ? 'air assault' : (u.entry || '?');
    const moved = doc.moves.find(m => m.unit === u.id);
    const b = button(u.id + ' (' + how + ')' + (moved ? ' ✓' : ''), {class: 'waiting-unit' + (selected === u.id ? ' selected' : ''), 'data-waiting': u.id}, () => select(u.id));
    waiting.append(b);
  }
  drawOnMap();
  drawAttacks();
  if (D.edition === 'spi-1975') drawDefense();
  $('intel-roll').checked = !!(doc.intelligence && doc.intelligence.roll);
  if (D.hidden && D.side === 'US') drawPriority();
  drawSelected();
}

function problemsOf(unit) { return analysis ? analysis.problems.filter(p => p.unit === unit) : []; }
function enemyAt(hex) {
  return Array.from(svg.querySelectorAll('.counter[data-hex="' + hex + '"]')).some(c => !D.mine[c.dataset.unit]);
}
// What the last action did to a unit's orders: in red with every rule case it breaks, else in green.
function report(unit, done) {
  const broken = problemsOf(unit);
  if (!broken.length) { say(done); return; }
  say(done + ', which breaks ' + broken.map(p => 'rule ' + p.rule + ': ' + p.message.replace(/\.$/, '')).join('; '), true);
}

// Scroll the map (not the page) so that the element's centre is the map's centre.
function centreOn(e) {
  if (!e) return;
  const box = $('map'), r = e.getBoundingClientRect(), m = box.getBoundingClientRect();
  box.scrollLeft += (r.left + r.width / 2) - (m.left + m.width / 2);
  box.scrollTop += (r.top + r.height / 2) - (m.top + m.height / 2);
}
function counterOf(unit) { return svg.querySelector('.counter[data-unit="' + unit + '"]'); }
function onMapUnits() { return Object.keys(D.mine).filter(u => counterOf(u)).sort(); }

// The view the page opens on: the player's own counter nearest the middle of his counters on the map, or, with none
// there, the first hex where a reinforcement of his may enter.
async function openView() {
  const here = onMapUnits().map(u => { const b = counterOf(u).getBBox(); return [u, b.x + b.width / 2, b.y + b.height / 2]; });
  if (here.length) {
    const mx = here.reduce((a, h) => a + h[1], 0) / here.length, my = here.reduce((a, h) => a + h[2], 0) / here.length;
    here.sort((a, b) => Math.hypot(a[1] - mx, a[2] - my) - Math.hypot(b[1] - mx, b[2] - my));
    centreOn(counterOf(here[0][0]));
    return;
  }
  const waiting = Object.values(D.mine).find(u => u.waiting);
  if (!waiting || D.setup) return;
  const r = await api('reach', {document: cleaned(), unit: waiting.id});
  if (r.status !== 200) return;
  const entries = Object.keys(r.data.hexes).filter(h => hexPoly(h)).sort();
  if (entries.length) centreOn(hexPoly(entries[0]));
}

function drawOnMap() {
  const box = $('on-map'); if (!box) return;
  box.innerHTML = '';
  const units = onMapUnits();
  $('on-map-count').textContent = units.length ? units.length + ' (click one to centre the map on it)' : 'none';
  for (const u of units) {
    const moved = doc.moves && doc.moves.find(m => m.unit === u);
    box.append(button(u + ' ' + D.mine[u].hex + (moved ? ' ✓' : ''), {class: 'on-map-unit' + (selected === u ? ' selected' : ''), 'data-on-map': u},
                      () => { centreOn(counterOf(u)); select(u); }));
  }
}

function drawSelected() {
  const box = $('selected'); box.innerHTML = '';
  if (mode === 'attack') {
    box.textContent = currentAttack === null ? 'press "New attack", then click your attacking units and the enemy unit or hidden marker to attack'
      : 'attack ' + (currentAttack + 1) + ': click your units to add or remove them, an enemy counter to add or remove it as a target';
    return;
  }
  if (mode === 'intel') { box.textContent = 'click the hidden markers (?) in the order their units should be exposed (19B.7); click one again to take it out'; return; }
  if (mode === 'defense' && fpfGun) return drawDefenseChoice(box);
  if (!selected || mode === 'defense') { box.textContent = mode === 'defense' ? (fpfGun ? fpfGun + ': shift-click the hexes of its retreat route' + (D.mine[fpfGun].artillery ? ', or click the unit it gives FPF to' : '') : 'click one of your units') : 'click one of your counters or reinforcements'; return; }
  const u = D.mine[selected];
  box.append(selected + (u && u.name ? ' (' + u.name + ')' : '') + (u ? ', ' + u.kind + ', ' + u.move + ' MP' : ''));
  if (reach) {
    const n = Object.keys(reach.hexes).length;
    box.append(html('div', {}, n + ' hex(es) within reach: click one for the cheapest legal path, shift-click hexes to lay a path step by step'));
    for (const [h, mp] of Object.entries(reach.exits || {})) {
      box.append(button('leave the map from ' + h + ' (' + mp + ' MP)', {'data-exit': h}, () => moveTo(selected, h, true)));
    }
  }
  if (laying && laying.unit === selected) box.append(html('div', {}, 'laid path: ' + laying.hexes.join(' ')));
}

function drawAttacks() {
  const box = $('attacks'); box.innerHTML = '';
  const odds = {};
  if (analysis) { let k = 0; doc.attacks.forEach((a, i) => { if (a.defenders.length) { odds[i] = analysis.odds[k]; k += 1; } }); }
  doc.attacks.forEach((a, i) => {
    const div = html('div', {class: 'attack' + (i === currentAttack ? ' current' : ''), 'data-attack': i});
    div.append(html('strong', {}, 'Attack ' + (i + 1) + ': '), (a.attackers.join(', ') || '(no unit)') + ' against ' + (a.defenders.join(', ') || '(pick a target)'));
    div.addEventListener('click', ev => { if (ev.target === div) { currentAttack = i; mode = 'attack'; draw(); } });
    const gsp = html('input', {type: 'number', min: 0, value: a.gsp || 0, class: 'gsp', 'data-attack': i, style: 'width:3em'});
    gsp.addEventListener('change', () => change(() => { doc.attacks[i].gsp = Math.max(0, parseInt(gsp.value || '0', 10)); }));
    const gl = html('label', {}, ' Ground Support Points '); gl.append(gsp);
    const bump = by => () => change(() => { doc.attacks[i].gsp = Math.max(0, (doc.attacks[i].gsp || 0) + by); });
    div.append(html('br'), gl, button('−', {'data-gsp-minus': i, title: 'one Ground Support Point less'}, bump(-1)),
               button('+', {'data-gsp-plus': i, title: 'one Ground Support Point more (9.1)'}, bump(1)));
    for (const u of a.attackers) {
      const mine = D.mine[u]; if (!mine || mine.artillery) continue;
      const sel = html('select', {class: 'advance', 'data-attack': i, 'data-unit-advance': u});
      for (const [v, t] of [[0, 'stays'], [1, 'advances 1 hex'], [2, 'advances 2 hexes'], [3, 'advances 3 hexes']]) sel.append(html('option', {value: v}, t));
      const adv = (a.advance || []).find(x => x.unit === u); sel.value = adv ? adv.to : 0;
      sel.addEventListener('change', () => change(() => {
        const rest = (doc.attacks[i].advance || []).filter(x => x.unit !== u);
        const to = parseInt(sel.value, 10);
        doc.attacks[i].advance = to ? rest.concat([{unit: u, to}]) : rest;
        if (!doc.attacks[i].advance.length) delete doc.attacks[i].advance;
      }));
      const l = html('label', {}, ' if the defender retreats, ' + u + ' '); l.append(sel); div.append(html('br'), l);
    }
    div.append(html('br'), button('select', {'data-select-attack': i}, () => { currentAttack = i; mode = 'attack'; selected = null; reach = null; draw(); }),
               button('remove', {'data-remove-attack': i}, () => change(() => { doc.attacks.splice(i, 1); currentAttack = null; })));
    const o = odds[i];
    if (o) div.append(html('pre', {class: 'odds'}, o.text.join('\n')));
    box.append(div);
    for (const u of a.attackers.concat(a.defenders)) counters(u).forEach(c => { if (i === currentAttack) c.classList.add('in-attack'); });
  });
  const owed = $('owed'); owed.innerHTML = '';
  if (analysis) {
    const lines = [['must still attack (7.12, 8.31, 12.22)', analysis.must_attack], ['must still be attacked (7.11)', analysis.must_be_attacked],
                   ['may attack', analysis.may_attack]];
    for (const [label, units] of lines) {
      const p = html('div', {class: 'owed-line', 'data-owed': label.split(' ')[0] + (label.includes('be attacked') ? '-be-attacked' : '')});
      p.append(html('strong', {}, label + ': '), units.length ? units.join(', ') : 'none'); owed.append(p);
    }
    owed.append(html('div', {id: 'gsp-left'}, 'Ground Support Points left: ' + analysis.gsp_left + ' of ' + D.gsp));
    for (const u of analysis.must_attack) counters(u).forEach(c => c.classList.add('must-attack'));
  }
}

function drawDefense() {
  const list = $('fpf'); list.innerHTML = '';
  const d = doc.defense;
  const routes = $('retreats'); routes.innerHTML = '';
  ((d && d.retreats) || []).forEach((r, i) => {
    const li = html('li', {'data-retreat': r.unit}, r.unit + ' retreats by ' + r.path.join(' ') + ' ');
    li.append(button('✕', {}, () => change(() => { doc.defense.retreats.splice(i, 1); if (!doc.defense.retreats.length) delete doc.defense.retreats; })));
    routes.append(li);
  });
  const advances = $('advances'); advances.innerHTML = '';
  ((d && d.advances) || []).forEach((a, i) => {
    const li = html('li', {'data-defense-advance-of': a.unit}, a.unit + ' advances ' + a.to + ' hex(es) after an attacker who retreats ');
    li.append(button('✕', {}, () => change(() => { doc.defense.advances.splice(i, 1); if (!doc.defense.advances.length) delete doc.defense.advances; })));
    advances.append(li);
  });
  $('gsp-fpf-box').hidden = !D.defense_choices.gsp_fpf;
  const given = $('gsp-fpf'); given.innerHTML = '';
  ((d && d.gsp_fpf) || []).forEach((g, i) => {
    const li = html('li', {'data-gsp-fpf-of': g.defender}, g.points + ' Ground Support Point(s) as FPF for ' + g.defender + ' ');
    li.append(button('✕', {}, () => change(() => { doc.defense.gsp_fpf.splice(i, 1); if (!doc.defense.gsp_fpf.length) delete doc.defense.gsp_fpf; })));
    given.append(li);
  });
  if (!d || d.fpf === undefined) { list.append(html('li', {}, 'the system chooses (docs/policies.md)')); return; }
  if (!d.fpf.length) list.append(html('li', {}, 'no FPF at all'));
  d.fpf.forEach((f, i) => {
    const li = html('li', {}, f.artillery + ' covers ' + f.defender + ' ');
    li.append(button('✕', {}, () => change(() => { doc.defense.fpf.splice(i, 1); })));
    list.append(li);
  });
}

// The choices for the unit picked in Defense mode: how deep it advances (7.9), and Ground Support as FPF where
// the rules let a player give it (D.defense_choices, from the game layer: never under Leyte 13.13).
function drawDefenseChoice(box) {
  const who = fpfGun, u = D.mine[who];
  box.append(who + ': shift-click the hexes of its retreat route' + (u.artillery ? ', or click the unit it gives FPF to' : ''));
  const setAdvance = to => () => change(() => {
    doc.defense = doc.defense || {};
    const rest = (doc.defense.advances || []).filter(a => a.unit !== who);
    doc.defense.advances = to ? rest.concat([{unit: who, to}]) : rest;
    if (!doc.defense.advances.length) delete doc.defense.advances;
  });
  if (!u.artillery) {
    const row = html('div', {}, 'if an attacker retreats from it: ');
    for (const [to, text] of [[0, 'stays'], [1, 'advances 1 hex'], [2, 'advances 2 hexes'], [3, 'advances 3 hexes']]) {
      row.append(button(text, {'data-defense-advance': to}, setAdvance(to)));
    }
    box.append(row);
  }
  if (D.defense_choices.gsp_fpf) {
    const bump = by => () => change(() => {
      doc.defense = doc.defense || {};
      const list = doc.defense.gsp_fpf = doc.defense.gsp_fpf || [];
      let g = list.find(x => x.defender === who);
      if (!g) { g = {defender: who, points: 0}; list.push(g); }
      g.points += by;
      doc.defense.gsp_fpf = list.filter(x => x.points > 0);
      if (!doc.defense.gsp_fpf.length) delete doc.defense.gsp_fpf;
    });
    box.append(html('div', {}, ''), button('+1 Ground Support as FPF', {'data-gsp-fpf-plus': who}, bump(1)),
               button('−1', {'data-gsp-fpf-minus': who}, bump(-1)));
  }
}

// The intelligence priority (19B.7): hexes in the order clicked; null in the orders keeps the last list.
function drawPriority() {
  const list = $('priority'); list.innerHTML = '';
  const pri = doc.intelligence && doc.intelligence.priority;
  const g = overlay();
  if (pri === undefined || pri === null) { list.append(html('li', {}, 'the last list stands')); }
  else if (!pri.length) list.append(html('li', {}, 'no priority: the policy chooses'));
  (pri || []).forEach((h, i) => {
    const li = html('li', {'data-priority': h}, h + ' ');
    if (i) li.append(button('↑', {title: 'expose earlier'}, () => change(() => { const p = doc.intelligence.priority; [p[i - 1], p[i]] = [p[i], p[i - 1]]; })));
    li.append(button('✕', {}, () => change(() => { doc.intelligence.priority.splice(i, 1); })));
    list.append(li);
    const c = centre(h); if (c) g.appendChild(el('text', {x: c[0] + 12, y: c[1] - 10, class: 'mp priority-rank', 'data-hex': h}, '#' + (i + 1)));
  });
  if (mode === 'intel') { const t = {}; for (const h of D.markers) t[h] = null; markHexes(t, 'allowed'); }
}

function setPriority(mutator) {
  return change(() => {
    doc.intelligence = doc.intelligence || {};
    mutator(doc.intelligence);
    if (!doc.intelligence.roll) delete doc.intelligence.roll;
    if (doc.intelligence.priority === null) delete doc.intelligence.priority;
    if (!Object.keys(doc.intelligence).length) delete doc.intelligence;
  });
}

function drawSetup() {
  const dep = D.deployment, mine = doc.deployment;
  const used = new Set(Object.values(mine.units));
  const g = overlay();
  if (dummyMode) {
    const table = {}; for (const h of dep.dummy_hexes) if (!used.has(h)) table[h] = null;
    markHexes(table, 'allowed');
  } else if (selected) {
    const table = {}; for (const h of dep.unit_hexes[selected]) if (!used.has(h) || mine.units[selected] === h) table[h] = null;
    markHexes(table, 'allowed');
  } else markHexes({}, 'allowed');
  for (const [u, h] of Object.entries(mine.units)) {
    const c = centre(h); if (!c) continue;
    g.appendChild(el('circle', {class: 'ghost', cx: c[0], cy: c[1], r: 11, 'data-unit': u}));
    g.appendChild(el('text', {class: 'ghost-label', x: c[0], y: c[1] + 3}, u.split('-').slice(1).join('-')));
  }
  for (const h of mine.dummies) { const c = centre(h); if (c) g.appendChild(el('rect', {class: 'dummy', x: c[0] - 9, y: c[1] - 9, width: 18, height: 18})); }
  $('setup-limits').textContent = Object.keys(mine.units).length + ' of ' + dep.units.length + ' units set up, each on a marked hex (one per hex); '
    + mine.dummies.length + ' of at most ' + dep.dummies + ' dummies placed: land hexes not clear, not next to an American unit, within '
    + dep.radius + ' hexes of a set-up hex (' + dep.dummy_hexes.length + ' such hexes).';
  const box = $('setup-units'); box.innerHTML = '';
  for (const u of dep.units) {
    const at = mine.units[u];
    box.append(button(u + (at ? ' → ' + at : ''), {class: 'setup-unit' + (at ? ' placed' : '') + (selected === u ? ' selected' : ''), 'data-setup-unit': u},
                      () => { selected = u; dummyMode = false; draw(); }));
  }
  $('place-dummies').classList.toggle('on', dummyMode);
  const dl = $('dummies'); dl.innerHTML = '';
  mine.dummies.forEach((h, i) => { const li = html('li', {}, 'dummy in ' + h + ' '); li.append(button('✕', {}, () => change(() => { doc.deployment.dummies.splice(i, 1); }))); dl.append(li); });
  const box2 = $('selected'); box2.textContent = dummyMode ? 'click an allowed hex to place a dummy there (again to take it away)'
    : selected ? selected + ': click one of the marked hexes' : 'pick a unit from the list, then its hex';
}

function drawProblems() {
  const list = $('problems'); list.innerHTML = '';
  if (!analysis) return;
  for (const p of analysis.problems) {
    const li = html('li', {class: 'problem', 'data-rule': p.rule, 'data-names': p.unit || ''}, 'rule ' + p.rule + (p.unit ? ' ' + p.unit : '') + ': ' + p.message);
    if (p.unit) li.addEventListener('click', () => { const c = svg.querySelector('.counter[data-unit="' + p.unit + '"]'); if (c) c.scrollIntoView({block: 'center', inline: 'center'}); });
    list.append(li);
    if (p.unit) counters(p.unit).forEach(c => c.classList.add('problem'));
  }
}

// -- actions -------------------------------------------------------------------------------
async function select(unit) {
  selected = unit; reach = null; laying = null;
  if (mode !== 'move') mode = 'move';
  const r = await api('reach', {document: cleaned(), unit});
  if (r.status === 200) { reach = r.data; say(unit + ' selected: ' + Object.keys(reach.hexes).length + ' hex(es) within reach'); }
  else say(r.data.error || 'no answer', true);
  draw();
  const first = reach && Object.keys(reach.hexes)[0];
  if (first && reach.start === null && hexPoly(first)) hexPoly(first).scrollIntoView({block: 'center', inline: 'center'});
}

function setMove(move) {
  return change(() => { doc.moves = doc.moves.filter(m => m.unit !== move.unit).concat([move]); });
}

async function moveTo(unit, hex, exit) {
  const r = await api('path', {document: cleaned(), unit, to: hex, exit: !!exit});
  if (r.status !== 200 || !r.data.move) { say((r.data && r.data.error) || 'no path', true); return; }
  selected = null; reach = null; laying = null;
  await setMove(r.data.move);
  report(unit, unit + (exit ? ' leaves the map from ' : ' moves to ') + hex);
}

async function layStep(unit, hex) {
  const u = D.mine[unit];
  if (!laying || laying.unit !== unit) laying = {unit, hexes: []};
  laying.hexes.push(hex);
  const move = u.waiting ? {unit, enter: laying.hexes[0], path: laying.hexes.slice(1)} : {unit, path: laying.hexes.slice()};
  const keep = laying;
  await setMove(move);
  report(unit, unit + ': path laid to ' + hex);
  laying = keep; selected = unit;
  const r = await api('reach', {document: cleaned(), unit}); reach = r.status === 200 ? r.data : null;
  draw();
}

function toggle(list, x) { const i = list.indexOf(x); if (i >= 0) list.splice(i, 1); else list.push(x); }

function onMap(ev) {
  const counter = ev.target.closest('.counter[data-unit], .ghost-counter[data-unit]');
  const hexEl = ev.target.closest('[data-hex]');
  const unit = counter ? counter.dataset.unit : null;
  const hex = counter ? counter.dataset.hex : (hexEl ? hexEl.dataset.hex : null);
  const mine = unit && D.mine[unit] && !D.mine[unit].dummy;
  if (D.setup) return setupClick(hex);
  if (mode === 'attack') {
    if (!unit) return;
    if (currentAttack === null) { say('press "New attack" first', true); return; }
    const a = doc.attacks[currentAttack];
    const list = mine ? a.attackers : (!D.mine[unit] ? a.defenders : null);
    if (!list) return;
    const gone = list.includes(unit);
    say('attack ' + (currentAttack + 1) + ': ' + unit + (gone ? ' taken out' : mine ? ' attacks' : ' is a target'));
    return change(() => { toggle(list, unit); });
  }
  if (mode === 'intel') {
    if (!hex) return;
    if (!D.markers.includes(hex) && !((doc.intelligence || {}).priority || []).includes(hex)) { say(hex + ' holds no hidden marker', true); return; }
    say(hex + (((doc.intelligence || {}).priority || []).includes(hex) ? ' taken out of' : ' added to') + ' the priority list (19B.7)');
    return setPriority(i => { i.priority = i.priority || []; toggle(i.priority, hex); });
  }
  if (mode === 'defense') {
    if (ev.shiftKey && fpfGun && hex) {  // the picked unit's retreat route, hex by hex (7.7)
      const who = fpfGun;
      return change(() => {
        doc.defense = doc.defense || {};
        const routes = doc.defense.retreats = doc.defense.retreats || [];
        let route = routes.find(r => r.unit === who);
        if (!route) { route = {unit: who, path: []}; routes.push(route); }
        route.path.push(hex);
        say(who + ' retreats by ' + route.path.join(' '));
      });
    }
    if (!mine) return;
    if (!fpfGun || !D.mine[fpfGun].artillery || unit === fpfGun) { fpfGun = unit === fpfGun ? null : unit; say(fpfGun ? fpfGun + ' selected' : ''); draw(); return; }
    const gun = fpfGun; fpfGun = null;
    say(gun + ' gives Final Protective Fire to ' + unit + ' (8.4)');
    return change(() => { doc.defense = doc.defense || {}; doc.defense.fpf = (doc.defense.fpf || []).concat([{artillery: gun, defender: unit}]); });
  }
  if (ev.shiftKey && selected && hex) return layStep(selected, hex);
  if (mine && unit !== selected && !(reach && hex in reach.hexes && hex !== D.mine[unit].hex)) return select(unit);
  if (unit && !D.mine[unit] && !(selected && reach && hex in reach.hexes)) { say(unit + ' (enemy, ' + hex + '): press "New attack" to attack it'); return; }
  if (selected && hex) {
    if (reach && hex in reach.hexes) return moveTo(selected, hex, false);
    say(hex + ' is out of reach of ' + selected + ' this phase', true);
  }
}

function setupClick(hex) {
  if (!hex) return;
  const mine = doc.deployment;
  if (dummyMode) {
    if (!D.deployment.dummy_hexes.includes(hex) && !mine.dummies.includes(hex)) { say(hex + ' is not a hex a dummy may take', true); return; }
    say(mine.dummies.includes(hex) ? 'dummy taken away from ' + hex : 'dummy placed in ' + hex);
    return change(() => { toggle(mine.dummies, hex); });
  }
  if (!selected) {
    const who = Object.entries(mine.units).find(([, h]) => h === hex);
    if (who) { selected = who[0]; say(who[0] + ' selected: click one of the marked hexes'); draw(); } else say('pick a unit from the list first', true);
    return;
  }
  if (!D.deployment.unit_hexes[selected].includes(hex)) { say(hex + ' is not a hex ' + selected + ' may set up in', true); return; }
  const unit = selected; selected = null;
  say(unit + ' set up in ' + hex);
  return change(() => {
    for (const [u, h] of Object.entries(mine.units)) if (h === hex && u !== unit) delete mine.units[u];
    mine.units[unit] = hex;
  });
}

async function save(overwrite) {
  const r = await api('save', {document: cleaned(), overwrite: !!overwrite});
  if (r.status === 409 && confirm(r.data.ask)) return save(true);
  if (r.status !== 200) { say(r.data.ask || r.data.error || 'not saved', true); return; }
  say('saved to ' + r.data.path);
}

async function submit(replace) {
  const r = await api('submit', {document: cleaned(), replace: !!replace});
  if (r.status === 409 && confirm(r.data.ask)) return submit(true);
  if (r.status !== 200) { say(r.data.ask || r.data.error || 'not submitted', true); return; }
  say('wrote ' + r.data.path + ' (revision ' + r.data.revision + '): send it to ' + r.data.to);
  $('mail-box').hidden = false;
  $('mail').textContent = r.data.mail.join('\n');
}

// -- wiring --------------------------------------------------------------------------------
function addModes() {
  const modes = D.setup ? [] : [['move', 'Move'], ['attack', 'Attack']].concat(D.edition === 'spi-1975' ? [['defense', 'Defense']] : [])
    .concat(D.hidden && D.side === 'US' ? [['intel', 'Intelligence']] : []);
  for (const [m, label] of modes) $('modes').append(button(label, {id: 'mode-' + m, 'data-mode': m}, () => { mode = m; selected = null; reach = null; fpfGun = null; say(label + ' mode'); draw(); }));
}
svg.addEventListener('click', onMap);
svg.addEventListener('mousedown', ev => { if (ev.shiftKey) ev.preventDefault(); });  // a shift-click lays a path, it selects no text
$('undo').addEventListener('click', () => { if (!undoStack.length) { say('nothing to undo'); return; } doc = JSON.parse(undoStack.pop()); laying = null; selected = null; reach = null; refresh(); say('undone'); });
$('save-orders').addEventListener('click', () => save(false));
$('submit-orders').addEventListener('click', () => submit(false));
$('load-orders').addEventListener('click', async () => {
  const r = await api('load', {});
  if (r.status !== 200 || r.data.error) { say(r.data.error || 'not loaded', true); return; }
  undoStack.push(JSON.stringify(doc)); doc = normalise(r.data.document); analysis = r.data.analysis; say('loaded ' + D.orders_path); draw();
});
$('new-attack').addEventListener('click', () => { doc.attacks.push({attackers: [], defenders: [], gsp: 0}); currentAttack = doc.attacks.length - 1; mode = 'attack'; selected = null; reach = null; draw(); });
$('place-dummies').addEventListener('click', () => { dummyMode = !dummyMode; selected = null; draw(); });
$('as-listed').addEventListener('click', () => change(() => {
  // the scenario's own set-up: each unit on the hex it is drawn on in the view
  for (const u of D.deployment.units) doc.deployment.units[u] = D.mine[u].hex;
}));
$('no-fpf').addEventListener('click', () => change(() => { doc.defense = doc.defense || {}; doc.defense.fpf = []; }));
$('fpf-by-system').addEventListener('click', () => change(() => { if (doc.defense) { delete doc.defense.fpf; if (!Object.keys(doc.defense).length) delete doc.defense; } }));
$('intel-roll').addEventListener('change', ev => change(() => {
  if (ev.target.checked) doc.intelligence = Object.assign({}, doc.intelligence || {}, {roll: true});
  else if (doc.intelligence) { delete doc.intelligence.roll; if (!Object.keys(doc.intelligence).length) delete doc.intelligence; }
}));
$('priority-clear').addEventListener('click', () => setPriority(i => { i.priority = []; }));
$('priority-keep').addEventListener('click', () => setPriority(i => { i.priority = null; }));
$('note').addEventListener('change', ev => change(() => { if (ev.target.value) doc.note = ev.target.value; else delete doc.note; }));
document.addEventListener('keydown', ev => { if (ev.key === 'Escape') { selected = null; reach = null; laying = null; fpfGun = null; say(''); draw(); } });
addModes();
busy = api('state').then(r => {
  if (r.status === 200) { doc = normalise(r.data.document); analysis = r.data.analysis; draw(); }
  else say(r.data.error || 'the page server did not answer', true);
  if (D.submitted) say('already submitted: revision ' + D.submitted.revision + ' in ' + D.submitted.file + ', for ' + D.submitted.to
                       + '. Submit again only to send a new revision.');
  return openView();
});
