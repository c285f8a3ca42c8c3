// pbem play, both pages: the page's address, its requests to the app (every answer comes from pbem), its status line.
"use strict";
const base = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
const $ = id => document.getElementById(id);

async function api(name, payload) {
  const init = payload === undefined ? {method: 'GET'} :
    {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(payload)};
  const r = await fetch(base + 'api/' + name, init);
  let data = {};
  try { data = await r.json(); } catch (e) { data = {error: 'the page server did not answer (' + r.status + ')'}; }
  return {status: r.status, data};
}

function say(text, bad) { const s = $('status'); s.textContent = text; s.className = bad ? 'bad' : ''; }
