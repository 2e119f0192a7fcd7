// The memory page: plain JavaScript, no framework, no inline script (the page's CSP forbids it).
// Everything shown is set as text (textContent, never innerHTML): what memory recalls is data, so a
// fact holding markup shows that markup and cannot script the page. The token lives in an HttpOnly
// cookie this script never sees; every request goes to this page's own origin.
/* global document, window */
'use strict';

const state = { scope: 'workspace', data: undefined };

/** An element with text and attributes; children appended as given. */
function element(tag, options = {}, ...children) {
  const node = document.createElement(tag);
  if (options.text !== undefined) node.textContent = String(options.text);
  if (options.className !== undefined) node.className = options.className;
  for (const [name, value] of Object.entries(options.attributes ?? {})) node.setAttribute(name, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

function button(label, onClick, className) {
  const node = element('button', { text: label, attributes: { type: 'button' }, ...(className ? { className } : {}) });
  node.addEventListener('click', () => {
    node.disabled = true;
    Promise.resolve(onClick()).finally(() => {
      node.disabled = false;
    });
  });
  return node;
}

function say(message, isError = false) {
  const status = document.getElementById('status');
  status.textContent = message;
  status.className = isError ? 'error' : '';
}

function localTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso ?? '') : date.toLocaleString();
}

function localDay(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso ?? '') : date.toLocaleDateString();
}

async function request(path, body) {
  const response = await fetch(path, body === undefined
    ? { credentials: 'same-origin', cache: 'no-store' }
    : { method: 'POST', credentials: 'same-origin', cache: 'no-store', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({ error: `the page's server answered ${response.status}` }));
  if (!response.ok) throw new Error(answer.error ?? `the page's server answered ${response.status}`);
  return answer;
}

/** A change: runs it, says what happened, shows memory as it is now. */
async function change(path, body, what) {
  say(`${what}…`);
  try {
    const answer = await request(path, body);
    say(answer.done ?? 'done');
    await load();
  } catch (error) {
    say(error.message, true);
  }
}

/** A forget: the server says what goes, the user confirms, then it goes. */
async function forget(body) {
  try {
    const plan = await request('/api/forget', { ...body, dryRun: true });
    if (!window.confirm(plan.confirm)) {
      say('Nothing was forgotten.');
      return;
    }
  } catch (error) {
    say(error.message, true);
    return;
  }
  await change('/api/forget', body, 'Forgetting');
}

function editor(initial, saveLabel, onSave, onCancel) {
  const area = element('textarea', { attributes: { 'aria-label': 'New text', maxlength: '20000' } });
  area.value = initial;
  const box = element('div', { className: 'editor' }, area, element('div', { className: 'actions' }, button(saveLabel, () => onSave(area.value)), button('Cancel', onCancel)));
  setTimeout(() => area.focus(), 0);
  return box;
}

function empty(list, words) {
  list.append(element('li', { className: 'empty', text: words }));
}

function renderScopes(scopes) {
  const nav = document.getElementById('scopes');
  nav.replaceChildren();
  for (const { scope, available } of scopes) {
    const label = scope === 'workspace' ? 'This workspace' : scope === 'user' ? 'You (every workspace)' : 'Team';
    const node = button(label, () => {
      state.scope = scope;
      return load();
    });
    node.setAttribute('aria-pressed', String(scope === state.scope));
    node.dataset.scope = scope;
    if (!available) node.title = 'not available here';
    nav.append(node);
  }
}

function renderPending(pending) {
  const list = document.getElementById('pending');
  list.replaceChildren();
  if (pending.length === 0) return empty(list, 'Nothing waits for review.');
  for (const memory of pending) {
    const item = element('li', { attributes: { 'data-pending': memory.id } });
    const text = element('p', { className: 'text', text: memory.text });
    const actions = element('div', { className: 'actions' },
      button('Approve', () => change('/api/pending/approve', { id: memory.id }, 'Approving')),
      button('Edit', () => {
        item.replaceChildren(element('p', { className: 'meta', text: `Edit, then approve: ${memory.kind} (${memory.scope})` }), editor(memory.text, 'Approve edited', (value) => change('/api/pending/approve', { id: memory.id, text: value }, 'Approving'), () => renderPending(pending)));
      }),
      button('Reject', () => change('/api/pending/reject', { id: memory.id }, 'Rejecting'), 'danger'));
    item.append(element('p', { className: 'meta' }, element('span', { className: 'kind', text: memory.kind.replace('_', ' ') }), document.createTextNode(` · ${memory.scope} · ${memory.source} · ${localTime(memory.createdAt)}`)), text, actions);
    list.append(item);
  }
}

function renderLoops(loops) {
  const list = document.getElementById('loops');
  list.replaceChildren();
  if (loops.length === 0) return empty(list, 'No open loop in this workspace (TODO:, next: and follow-up: lines of your sessions open one).');
  for (const loop of loops) {
    const meta = element('p', { className: 'meta' });
    if (loop.stale) meta.append(element('span', { className: 'mark stale', text: 'stale' }));
    meta.append(document.createTextNode(loop.age));
    list.append(element('li', { attributes: { 'data-loop': loop.id } },
      meta,
      element('p', { className: 'text', text: loop.text }),
      element('div', { className: 'actions' },
        button('Done', () => change('/api/loops/done', { id: loop.id }, 'Closing')),
        button('Drop', () => change('/api/loops/drop', { id: loop.id }, 'Dropping'), 'danger'))));
  }
}

function renderMemories(memories) {
  const list = document.getElementById('memories');
  list.replaceChildren();
  if (memories.length === 0) return empty(list, 'No curated memory in this scope yet.');
  for (const memory of memories) {
    const item = element('li', { attributes: { 'data-episode': memory.episode } });
    const show = () => {
      const actions = element('div', { className: 'actions' });
      if (memory.episode) {
        actions.append(
          button('Edit', () => item.replaceChildren(editor(memory.text, 'Save', (value) => change('/api/edit', { episode: memory.episode, text: value }, 'Saving'), show))),
          button('Forget', () => forget({ what: 'memory', episode: memory.episode }), 'danger'),
        );
      }
      item.replaceChildren(
        element('p', { className: 'meta' }, element('span', { className: 'kind', text: memory.kind.replace('_', ' ') }), document.createTextNode(` · ${memory.scope} · ${localTime(memory.date)} · by ${memory.who}, with ${memory.tool}`)),
        element('p', { className: 'text', text: memory.text }),
        actions,
      );
    };
    show();
    list.append(item);
  }
}

function factItem(fact) {
  const item = element('li', { attributes: { 'data-fact': fact.uuid } });
  const marks = element('p', { className: 'meta' });
  if (fact.stale.length > 0) marks.append(element('span', { className: 'mark stale', text: `possibly stale: ${fact.stale.join(', ')} no longer exists` }));
  if (fact.superseded) marks.append(element('span', { className: 'mark superseded', text: 'superseded' }));
  marks.append(document.createTextNode(`valid from ${fact.validAt ? localTime(fact.validAt) : 'unknown'}${fact.invalidAt ? ` until ${localTime(fact.invalidAt)}` : ''}`));
  item.append(marks, element('p', { className: 'text', text: fact.fact }));
  if (fact.sources.length === 0) item.append(element('p', { className: 'citation', text: 'source: not recorded on this machine' }));
  for (const source of fact.sources) {
    const words = `from ${source.tool}${source.title ? ` — “${source.title}”` : ''}, ${localDay(source.at)}`;
    item.append(element('p', { className: 'citation', attributes: { 'data-source': source.episode } }, element('span', { text: words }), button('Forget this source', () => forget({ what: 'source', episode: source.episode }), 'danger')));
  }
  return item;
}

function renderFacts(facts) {
  const list = document.getElementById('facts');
  list.replaceChildren();
  if (facts.length === 0) return empty(list, 'No facts in this scope yet (Graphiti extracts them from what was sent).');
  for (const fact of facts) list.append(factItem(fact));
}

function renderConversations(days) {
  const box = document.getElementById('conversations');
  box.replaceChildren();
  if (state.scope !== 'workspace') return box.append(element('p', { className: 'empty', text: 'Conversations are kept in the workspace scope.' }));
  if (days.length === 0) return box.append(element('p', { className: 'empty', text: 'No conversation captured yet.' }));
  for (const day of days) {
    box.append(element('h3', { text: `${day.tool} · ${localDay(day.day)}` }));
    const list = element('ul', { className: 'list' });
    for (const conversation of day.conversations) {
      list.append(element('li', { attributes: { 'data-conversation': conversation.session } },
        element('p', { className: 'text', text: conversation.title ?? 'Untitled conversation' }),
        element('p', { className: 'meta', text: `${conversation.episodes.length} ${conversation.episodes.length === 1 ? 'part' : 'parts'}, last at ${localTime(conversation.at)}` }),
        element('div', { className: 'actions' }, button('Forget this conversation', () => forget({ what: 'conversation', session: conversation.session, episodes: conversation.episodes }), 'danger'))));
    }
    box.append(list);
  }
}

function renderAudit(entries) {
  const list = document.getElementById('audit');
  list.replaceChildren();
  if (entries.length === 0) return empty(list, 'Nothing was sent in the last 30 days.');
  for (const entry of entries) list.append(element('li', {}, element('span', { className: 'meta', text: `${localTime(entry.at)} — ` }), element('span', { text: entry.words })));
}

function render(data) {
  document.getElementById('where').textContent = `${data.endpoint}${data.emulator ? ' (the emulator, not Graphiti)' : ''} · ${data.workspace}`;
  renderScopes(data.scopes);
  const cached = document.getElementById('cached');
  const notice = data.available === false ? data.why : data.cached;
  cached.hidden = !notice;
  cached.textContent = notice ?? '';
  renderPending(data.pending);
  renderLoops(data.loops ?? []);
  renderMemories(data.memories);
  renderFacts(data.facts);
  renderConversations(data.conversations);
  renderAudit(data.audit);
  document.getElementById('forget-scope').disabled = data.available === false;
}

async function load() {
  try {
    state.data = await request(`/api/overview?scope=${encodeURIComponent(state.scope)}`);
    render(state.data);
    document.body.dataset.loaded = String(Date.now());
  } catch (error) {
    say(error.message, true);
  }
}

async function search(event) {
  event.preventDefault();
  const query = document.getElementById('search-query').value;
  const list = document.getElementById('search-results');
  list.replaceChildren();
  say('Searching…');
  try {
    const answer = await request(`/api/search?scope=${encodeURIComponent(state.scope)}&q=${encodeURIComponent(query)}`);
    say(`${answer.facts.length} ${answer.facts.length === 1 ? 'fact' : 'facts'} found`);
    if (answer.facts.length === 0) empty(list, 'Nothing found.');
    for (const fact of answer.facts) list.append(factItem(fact));
  } catch (error) {
    say(error.message, true);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('refresh').addEventListener('click', () => load());
  document.getElementById('search-form').addEventListener('submit', search);
  document.getElementById('forget-scope').addEventListener('click', () => forget({ what: 'scope', scope: state.scope }));
  void load();
});
