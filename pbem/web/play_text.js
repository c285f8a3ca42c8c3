// pbem play, orders written as JSON: the text is sent to the app, which checks it with the game's rules system.
// Sent after page_api.js in one script (its "use strict", base, $, api and say hold here too).
const D = JSON.parse(document.getElementById('pbem-play').textContent);
const svg = document.querySelector('#map svg');
const area = $('orders-text');
let busy = Promise.resolve();
let timer = null;

// The text as a document, or null (and the fault shown) when it is not a JSON object.
function written() {
  let doc;
  try { doc = JSON.parse(area.value); } catch (e) { showProblems([{rule: 'JSON', unit: null, message: 'not JSON: ' + e.message}]); return null; }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    showProblems([{rule: 'JSON', unit: null, message: 'the orders are one JSON object, as the template shows'}]);
    return null;
  }
  return doc;
}

function showProblems(problems) {
  const list = $('problems');
  list.innerHTML = '';
  for (const p of problems) {
    const li = document.createElement('li');
    li.textContent = (p.unit ? p.unit + ': ' : '') + p.message + ' (rule ' + p.rule + ')';
    list.append(li);
  }
  svg.querySelectorAll('.counter.problem').forEach(c => c.classList.remove('problem'));
  for (const p of problems) if (p.unit) svg.querySelectorAll('.counter[data-unit="' + p.unit + '"]').forEach(c => c.classList.add('problem'));
}

function check() {
  busy = busy.then(async () => {
    const doc = written();
    if (doc === null) return;
    const r = await api('check', {document: doc});
    if (r.status !== 200) { say(r.data.error || 'check failed', true); return; }
    showProblems(r.data.analysis.problems);
    say(r.data.analysis.valid ? 'valid' : r.data.analysis.problems.length + ' problem(s)', !r.data.analysis.valid);
  });
  return busy;
}

function show(doc) { area.value = JSON.stringify(doc, null, 2); }

async function save(overwrite) {
  const doc = written(); if (doc === null) { say('not saved: the orders are not a JSON object', true); return; }
  const r = await api('save', {document: doc, overwrite: !!overwrite});
  if (r.status === 409 && confirm(r.data.ask)) return save(true);
  if (r.status !== 200) { say(r.data.ask || r.data.error || 'not saved', true); return; }
  say('saved to ' + r.data.path);
}

async function submit(replace) {
  const doc = written(); if (doc === null) { say('not submitted: the orders are not a JSON object', true); return; }
  const r = await api('submit', {document: doc, replace: !!replace});
  if (r.status === 409 && confirm(r.data.ask)) return submit(true);
  if (r.status !== 200) { say(r.data.ask || r.data.error || 'not submitted', true); return; }
  say('wrote ' + r.data.path + ' (revision ' + r.data.revision + '): send it to ' + r.data.to);
  $('mail-box').hidden = false;
  $('mail').textContent = r.data.mail.join('\n');
}

// -- clicks that write into the text: a move's units and path, an attack's target and attackers, a Reserve marker.
// The page reads only the map (whose counters are whose, which hexes hold the enemy's); every rule is the system's check.
let mode = null;   // 'move', 'assault', 'fire', 'reserve'
let current = null; // the move or attack being written: {block, index}
const BLOCKS = {move: D.blank.moves ? 'moves' : 'exploitation', assault: 'attacks', fire: 'attacks', reserve: 'reserves'};

function mine(counter) { return counter.classList.contains('side-' + D.side); }
function enemyIn(hex) {
  return [...svg.querySelectorAll('.counter[data-hex="' + hex + '"]')].some(c => !mine(c));
}
function edit(mutator) {
  const doc = written();
  if (doc === null) { say('the orders are not a JSON object: fix the text first', true); return; }
  mutator(doc);
  show(doc);
  check();
}
function setMode(m) {
  mode = mode === m ? null : m; current = null;
  document.querySelectorAll('#modes button').forEach(b => b.classList.toggle('on', b.dataset.mode === mode));
  say(mode ? {move: 'click one of your counters, then each hex it enters; shift-click another of your counters to move it along',
              assault: 'click the hex attacked, then each attacking unit', fire: 'click the hex attacked, then each firing unit',
              reserve: 'click your units to put under (or take from under) a Reserve marker'}[mode] : '');
}
for (const m of ['move', 'assault', 'fire', 'reserve']) {
  if (!(BLOCKS[m] in D.blank)) continue;
  const b = document.createElement('button');
  b.type = 'button'; b.id = 'mode-' + m; b.dataset.mode = m;
  b.textContent = {move: BLOCKS.move === 'moves' ? 'Move' : 'Exploit', assault: 'Assault', fire: 'Fire', reserve: 'Reserve'}[m];
  b.addEventListener('click', () => setMode(m));
  $('modes').append(b);
}
svg.addEventListener('click', ev => {
  if (!mode) return;
  const counter = ev.target.closest('.counter');
  const hit = ev.target.closest('[data-hex]');
  const hex = hit ? hit.dataset.hex : null;
  const block = BLOCKS[mode];
  if (mode === 'reserve') {
    if (!counter || !mine(counter)) return;
    edit(doc => { const list = doc.reserves = doc.reserves || []; const u = counter.dataset.unit;
                  const at = list.indexOf(u); if (at >= 0) list.splice(at, 1); else list.push(u); });
  } else if (mode === 'move') {
    if (counter && mine(counter) && (current === null || ev.shiftKey)) {
      edit(doc => { const list = doc[block] = doc[block] || [];
        if (current !== null && list[current.index]) { list[current.index].units.push(counter.dataset.unit); return; }
        list.push({units: [counter.dataset.unit], path: []}); current = {index: list.length - 1}; });
    } else if (current !== null && hex) {
      edit(doc => { const move = (doc[block] || [])[current.index]; if (!move) return;
        move.path.push(hex);
        if (enemyIn(hex)) { move.overruns = move.overruns || []; if (!move.overruns.includes(hex)) move.overruns.push(hex); } });
    }
  } else {
    if (current === null) {
      if (!hex || !enemyIn(hex)) { say('click a hex that holds the enemy\'s units', true); return; }
      edit(doc => { const list = doc.attacks = doc.attacks || [];
        list.push({type: mode, target: hex, attackers: []}); current = {index: list.length - 1}; });
    } else if (counter && mine(counter)) {
      edit(doc => { const attack = (doc.attacks || [])[current.index]; if (!attack) return;
        const u = counter.dataset.unit; const at = attack.attackers.indexOf(u);
        if (at >= 0) attack.attackers.splice(at, 1); else attack.attackers.push(u); });
    }
  }
});
document.addEventListener('keydown', ev => { if (ev.key === 'Escape' && document.activeElement !== area) { current = null; say(mode ? 'done: click for the next one' : ''); } });
$('done').addEventListener('click', () => { current = null; say(mode ? 'done: click for the next one' : ''); });

area.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(check, 400); });
$('check-orders').addEventListener('click', () => check());
$('save-orders').addEventListener('click', () => save(false));
$('submit-orders').addEventListener('click', () => submit(false));
$('load-orders').addEventListener('click', async () => {
  const r = await api('load', {});
  if (r.status !== 200 || r.data.error) { say(r.data.error || 'not loaded', true); return; }
  show(r.data.document); showProblems(r.data.analysis.problems); say('loaded ' + D.orders_path);
});
document.querySelectorAll('tr.unit-row').forEach(row => row.addEventListener('click', () => {
  svg.querySelectorAll('.counter.selected').forEach(c => c.classList.remove('selected'));
  svg.querySelectorAll('.counter[data-unit="' + row.dataset.unit + '"]').forEach(c => c.classList.add('selected'));
}));
busy = api('state').then(r => {
  if (r.status === 200) { show(r.data.document); showProblems(r.data.analysis.problems); }
  else say(r.data.error || 'the page server did not answer', true);
  if (D.submitted) say('already submitted: revision ' + D.submitted.revision + ' in ' + D.submitted.file + ', for ' + D.submitted.to
                       + '. Submit again only to send a new revision.');
});
