// pbem play, orders written as JSON: the text is sent to the app, which checks it with the game's rules system.
"use strict";
const D = JSON.parse(document.getElementById('pbem-play').textContent);
const svg = document.querySelector('#map svg');
const base = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
const $ = id => document.getElementById(id);
const area = $('orders-text');
let busy = Promise.resolve();
let timer = null;

async function api(name, payload) {
  const init = payload === undefined ? {method: 'GET'} :
    {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(payload)};
  const r = await fetch(base + 'api/' + name, init);
  let data = {};
  try { data = await r.json(); } catch (e) { data = {error: 'the page server did not answer (' + r.status + ')'}; }
  return {status: r.status, data};
}

function say(text, bad) { const s = $('status'); s.textContent = text; s.className = bad ? 'bad' : ''; }

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
