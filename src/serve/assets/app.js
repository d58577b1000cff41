// warren serve: the page. Plain JavaScript modules, no build step, no network beyond this
// server.
//
// The server pushes a `status` event after every reload of the page's recipe (parameters,
// problems); the page then asks /api/map for its own seed and parameters, and draws the answer
// on a canvas. The page's state (recipe, seed, parameters, level, layer, view) lives in the
// URL's #fragment: each recipe, seed and parameter set is a browser history entry (Back and
// Forward return to it), an edited #fragment is followed, and a reload or a shared link shows
// the same map. The live statistics panel lives in sweep.js.
import { Sweep, number as tableNumber } from './sweep.js';

{
  const $ = (id) => document.getElementById(id);
  const MAX_SEED = (1n << 64n) - 1n;
  /** CSS pixels per cell from which "when zoomed in" draws glyphs. */
  const GLYPH_ZOOM = 16;
  /** The same, for pictures whose glyphs say what their colours do not (see glyphZoom). */
  const GLYPH_ZOOM_WHEN_GLYPHS_MATTER = 6;
  const MIN_ZOOM = 0.05;
  const MAX_ZOOM = 128;
  const OVERLAYS = {
    rooms: '#ffc83c',
    corridors: '#50c8ff',
    doors: '#ff8c00',
    stairs: '#60ff60',
    spawns: '#ff40ff',
  };

  /** Colours of the marks drawn over the map. */
  const MARKS = {
    highlight: [0, 230, 255], // the legend entry clicked
    diff: [255, 40, 200], // cells that differ from the reference
    step: [255, 230, 0], // cells the phase shown changed
  };
  /** Milliseconds between phases while replay plays. */
  const PLAY_EVERY = 700;

  const state = {
    session: null, // what `warren serve` was started with
    path: null, // the recipe shown, as the server lists it (`scripts/rooms.lua`)
    recipes: [], // every recipe the server offers
    recipe: null, // name, description, params (the last recipe that loaded)
    paramSpec: '', // the params the controls were built from, as JSON
    version: null, // the status version the map was asked for
    refetch: false, // ask again at the next status (after a reconnection)
    statusProblems: [], // what is broken in the files now
    requestProblems: null, // why the latest map request failed: { kind, problems }
    seed: null, // text: seeds are 64-bit
    params: {}, // name -> text, as `--set` takes it
    level: 1,
    layer: 'terrain',
    overlays: new Set(),
    glyphs: 'auto',
    steps: false,
    frame: null, // step index, null for the finished map
    view: null, // { zoom: CSS px per cell, x, y: the map's top-left on screen }
    data: null, // the last good generation
    dataQuery: '', // the query it answered
    layers: new Map(), // `level/frame/layer` -> drawn layer, or 'loading'
    hover: null,
    pinned: null,
    before: null, // the generation the last save replaced (same query), for the diff
    a: null, // the pinned map A: { data, level, frame, label }
    sideBySide: true, // A drawn beside B while A is pinned
    diff: false, // mark the cells B's map has that differ from the reference
    stepChanges: true, // mark what the phase shown changed
    highlight: null, // { kind: 'terrain' | 'region' | 'priority', key } from the legend
    legendKind: 'terrain',
    playing: 0, // the replay timer, while it plays
    entry: '', // the history entry shown: recipe, seed and parameters
  };

  // ---- the URL fragment and history --------------------------------------------------------

  function readFragment() {
    const h = new URLSearchParams(location.hash.slice(1));
    const out = {};
    if (h.has('recipe')) out.recipe = h.get('recipe');
    if (h.has('seed')) out.seed = h.get('seed');
    if (h.has('set')) out.sets = h.getAll('set').map(splitSet).filter(Boolean);
    if (h.has('level')) out.level = Math.max(1, parseInt(h.get('level'), 10) || 1);
    if (h.has('layer')) out.layer = h.get('layer');
    if (h.has('show')) out.overlays = h.get('show').split(',').filter((o) => o in OVERLAYS);
    if (['auto', 'on', 'off'].includes(h.get('glyphs'))) out.glyphs = h.get('glyphs');
    if (h.get('steps') === '1') out.steps = true;
    if (h.has('step')) {
      const step = parseInt(h.get('step'), 10);
      if (step >= 0) out.frame = step;
    }
    if (h.has('cell')) {
      const [x, y] = h.get('cell').split(',').map((n) => parseInt(n, 10));
      if (x >= 0 && y >= 0) out.pinned = { x, y };
    }
    if (h.has('view')) {
      const [zoom, x, y] = h.get('view').split(',').map(Number);
      if ([zoom, x, y].every(Number.isFinite) && zoom >= MIN_ZOOM && zoom <= MAX_ZOOM) {
        out.view = { zoom, x, y };
      }
    }
    return out;
  }

  /** The fragment of the page's state. */
  function fragmentOf() {
    const h = new URLSearchParams();
    if (state.path !== null) h.set('recipe', state.path);
    if (state.seed !== null) h.set('seed', state.seed);
    for (const [k, v] of changedParams()) h.append('set', `${k}=${v}`);
    if (state.level !== 1) h.set('level', String(state.level));
    if (state.layer !== 'terrain') h.set('layer', state.layer);
    if (state.overlays.size) h.set('show', [...state.overlays].join(','));
    if (state.glyphs !== 'auto') h.set('glyphs', state.glyphs);
    if (state.steps) h.set('steps', '1');
    if (state.steps && state.frame !== null) h.set('step', String(state.frame));
    if (state.pinned) h.set('cell', `${state.pinned.x},${state.pinned.y}`);
    if (state.view) {
      const v = state.view;
      h.set('view', `${+v.zoom.toFixed(4)},${Math.round(v.x)},${Math.round(v.y)}`);
    }
    return '#' + h.toString();
  }

  /** What makes a history entry: the recipe, the seed and the parameters. */
  function entryOf() {
    return JSON.stringify([state.path, state.seed, changedParams()]);
  }

  let fragmentTimer = 0;
  /**
   * Puts the page's state into the URL. A new recipe, seed or parameter set is a new history
   * entry, at once; anything else (the view, the layer) replaces the entry's address a moment
   * later.
   */
  function writeFragment() {
    clearTimeout(fragmentTimer);
    const entry = entryOf();
    if (state.entry && entry !== state.entry) {
      state.entry = entry;
      history.pushState(null, '', fragmentOf());
      return;
    }
    state.entry = entry;
    // The address as it is now: by the time the timer fires, a new seed or recipe may already be
    // in `state` (its entry is pushed when its map arrives), and must not overwrite this entry.
    const fragment = fragmentOf();
    fragmentTimer = setTimeout(() => history.replaceState(null, '', fragment), 250);
  }

  function splitSet(text) {
    const i = text.indexOf('=');
    return i > 0 ? [text.slice(0, i), text.slice(i + 1)] : null;
  }

  /**
   * Back, Forward or an edited #fragment: shows what the address says. A fragment without a
   * recipe means the start recipe; without a seed, the start seed.
   */
  function followFragment() {
    if (!state.session || fragmentOf() === location.hash) return;
    clearTimeout(fragmentTimer);
    const f = readFragment();
    const recipe = f.recipe ?? state.session.script;
    const sameRecipe = recipe === state.path;
    state.seed = validSeed(f.seed) ? BigInt(f.seed).toString() : state.session.seed;
    $('seed').value = state.seed;
    $('seed').classList.remove('invalid');
    state.params = {};
    for (const [k, v] of f.sets ?? (recipe === state.session.script && !f.recipe ? state.session.sets : [])) {
      state.params[k] = v;
    }
    state.level = Math.min(f.level ?? 1, state.session.levels);
    $('level').value = String(state.level);
    state.layer = f.layer ?? 'terrain';
    state.overlays = new Set(f.overlays ?? []);
    for (const box of document.querySelectorAll('#overlays input')) box.checked = state.overlays.has(box.value);
    state.glyphs = f.glyphs ?? state.glyphs;
    $('glyphs').value = state.glyphs;
    state.steps = f.steps ?? false;
    $('steps').checked = state.steps;
    state.frame = state.steps ? f.frame ?? null : null;
    state.pinned = f.pinned ?? null;
    if (f.view) state.view = f.view;
    state.entry = entryOf();
    if (sameRecipe) {
      if (state.recipe) buildParams();
      requestMap();
    } else {
      openRecipe(recipe);
    }
  }

  // ---- status from the server ---------------------------------------------------------------

  const fragment = readFragment();
  let events = null;

  /**
   * Follows the status of recipe `path` (null: the one the server started with): its events
   * replace those of any recipe before.
   */
  function connect(path) {
    if (events) events.close();
    const q = path === null ? '' : '?' + new URLSearchParams({ recipe: path }).toString();
    events = new EventSource('/api/events' + q);
    const mine = events;
    events.addEventListener('status', (e) => {
      if (mine === events) onStatus(JSON.parse(e.data));
    });
    events.onerror = async () => {
      if (mine !== events) return;
      state.refetch = true;
      setStatusLine('offline', 'disconnected from warren serve — retrying…');
      if (state.version !== null) return;
      // Never shown: a recipe this server does not offer? Say so, and show the start recipe.
      const answer = await fetch('/api/status' + q, { cache: 'no-store' }).catch(() => null);
      if (mine !== events || answer?.status !== 404) return;
      const body = await answer.json();
      mine.close();
      state.requestProblems = body.error;
      showErrors();
      openRecipe(null);
    }
  }

  /** Shows another recipe: its parameters, map and statistics follow its first status. */
  function openRecipe(path) {
    stopPlaying();
    state.path = path;
    state.recipe = null;
    state.paramSpec = '';
    state.version = null;
    state.before = null;
    state.highlight = null;
    if (path !== null) $('recipe').value = path;
    connect(path);
  }

  function onStatus(s) {
    const first = state.session === null;
    state.session = s.session;
    if (first) start(s.session);
    if (state.path === null) {
      state.path = s.path;
      document.body.dataset.recipe = s.path;
    }
    if (s.path !== state.path) return;
    updateRecipes(s.recipes);
    if (s.recipe) {
      state.recipe = s.recipe;
      $('recipe-name').textContent = s.recipe.name;
      $('recipe-description').textContent = s.recipe.description;
      const spec = JSON.stringify(s.recipe.params);
      if (spec !== state.paramSpec) {
        state.paramSpec = spec;
        const known = new Set(s.recipe.params.map((p) => p.name));
        for (const name of Object.keys(state.params)) if (!known.has(name)) delete state.params[name];
        buildParams();
      }
    }
    state.statusProblems = s.problems;
    showErrors();
    const reason = s.reason === 'started' ? 'loaded' : `reloaded ${s.reason}`;
    setStatusLine(
      s.problems.length ? 'error' : 'ok',
      `${reason} in ${s.reload_ms.toFixed(0)} ms${s.problems.length ? ' — broken, keeping the last good map' : ''}`,
    );
    if (state.refetch || s.version !== state.version) {
      state.refetch = false;
      state.version = s.version;
      requestMap();
    }
  }

  /** The recipe picker's choices. */
  function updateRecipes(recipes) {
    if (recipes.join() === state.recipes.join()) return;
    state.recipes = recipes;
    const select = $('recipe');
    select.textContent = '';
    for (const r of recipes) select.add(new Option(r, r));
    if (!recipes.includes(state.path)) select.add(new Option(state.path, state.path));
    select.value = state.path;
  }

  /** The first status: the start-up seed and parameters, unless the URL says otherwise. */
  function start(session) {
    state.seed = validSeed(fragment.seed) ? BigInt(fragment.seed).toString() : session.seed;
    const startRecipe = (fragment.recipe ?? session.script) === session.script;
    for (const [k, v] of fragment.sets ?? (startRecipe ? session.sets : [])) state.params[k] = v;
    state.level = fragment.level ?? 1;
    state.layer = fragment.layer ?? 'terrain';
    state.overlays = new Set(fragment.overlays ?? []);
    state.glyphs = fragment.glyphs ?? 'auto';
    state.steps = fragment.steps ?? false;
    state.frame = state.steps ? fragment.frame ?? null : null;
    state.view = fragment.view ?? null;
    state.pinned = fragment.pinned ?? null;
    $('seed').value = state.seed;
    $('glyphs').value = state.glyphs;
    $('steps').checked = state.steps;
    for (const box of document.querySelectorAll('#overlays input')) {
      box.checked = state.overlays.has(box.value);
    }
    const levels = $('level');
    for (let i = 1; i <= session.levels; i++) levels.add(new Option(`level ${i}`, String(i)));
    state.level = Math.min(state.level, session.levels);
    levels.value = String(state.level);
    $('level-section').hidden = session.levels < 2;
  }

  // ---- asking for maps ----------------------------------------------------------------------

  /** Parameters whose value differs from the recipe's default, sorted by name. */
  function changedParams() {
    const specs = new Map((state.recipe?.params ?? []).map((p) => [p.name, p]));
    return Object.entries(state.params)
      .filter(([k, v]) => !specs.has(k) || specs.get(k).default !== v)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The recipe and parameters: what a map and a sweep share. */
  function recipeQuery() {
    const q = new URLSearchParams();
    q.set('recipe', state.path);
    for (const [k, v] of changedParams()) q.append('set', `${k}=${v}`);
    return q;
  }

  function generationQuery() {
    const q = new URLSearchParams();
    q.set('recipe', state.path);
    q.set('seed', state.seed);
    for (const [k, v] of changedParams()) q.append('set', `${k}=${v}`);
    q.set('levels', String(state.session.levels));
    if (state.steps) q.set('steps', '1');
    return q;
  }

  let inflight = null;
  let asked = 0;
  let busyTimer = 0;

  async function requestMap() {
    if (!state.session) return;
    if (!validSeed(state.seed)) {
      $('seed').classList.add('invalid');
      return;
    }
    if (inflight) inflight.abort();
    const control = new AbortController();
    inflight = control;
    if (state.recipe) sweep.update(recipeQuery(), state.version);
    const query = generationQuery().toString();
    const mine = ++asked;
    clearTimeout(busyTimer);
    busyTimer = setTimeout(() => ($('busy').hidden = false), 150);
    document.body.dataset.state = 'loading';
    try {
      const answer = await fetch('/api/map?' + query, { signal: control.signal, cache: 'no-store' });
      const body = await answer.json();
      if (mine !== asked) return;
      if (!answer.ok) {
        state.requestProblems = body.error ?? { kind: 'internal', problems: [{ message: `HTTP ${answer.status}` }] };
        markInvalidParams();
        showErrors();
        return;
      }
      state.requestProblems = null;
      markInvalidParams();
      accept(decode(body), query);
    } catch (e) {
      if (e.name === 'AbortError' || mine !== asked) return;
      state.requestProblems = { kind: 'network', problems: [{ message: `cannot reach warren serve: ${e.message}` }] };
      showErrors();
    } finally {
      if (mine === asked) {
        inflight = null;
        clearTimeout(busyTimer);
        $('busy').hidden = true;
        if (document.body.dataset.state === 'loading') document.body.dataset.state = state.data ? 'ready' : 'error';
      }
    }
  }

  /** Unpacks the base64 cell arrays of every frame. */
  function decode(body) {
    for (const level of body.levels) {
      for (const f of level.frames) {
        f.terrainIds = unpack(f.terrain);
        f.priorities = unpack(f.priority);
        f.regionIds = unpack(f.region);
        delete f.terrain;
        delete f.priority;
        delete f.region;
      }
    }
    return body;
  }

  function unpack(cells) {
    const raw = atob(cells.data);
    const n = raw.length / cells.bytes;
    const out = cells.bytes === 1 ? new Uint8Array(n) : cells.bytes === 2 ? new Uint16Array(n) : new Uint32Array(n);
    if (cells.bytes === 1) {
      for (let i = 0; i < n; i++) out[i] = raw.charCodeAt(i);
    } else {
      for (let i = 0, j = 0; i < n; i++, j += cells.bytes) {
        let v = 0;
        for (let b = cells.bytes - 1; b >= 0; b--) v = v * 256 + raw.charCodeAt(j + b);
        out[i] = v;
      }
    }
    return out;
  }

  /** What identifies a map, whether its steps were kept or not. */
  function mapKey(query) {
    const q = new URLSearchParams(query);
    q.delete('steps');
    return q.toString();
  }

  /**
   * A new good map: keep the view, the level, the layer and the step where they still exist;
   * fit the map again when its size changed. A map that replaces the same map of an older
   * version (a save) is kept as what the diff compares with.
   */
  function accept(data, query) {
    const old = state.data;
    const sameMap = old && mapKey(state.dataQuery) === mapKey(query);
    if (sameMap && old.version !== data.version) state.before = { data: old, level: state.level };
    else if (!sameMap) state.before = null;
    const oldSize = old ? sizeOf(old.levels[Math.min(state.level, old.levels.length) - 1].frames.at(-1)) : null;
    state.data = data;
    state.dataQuery = query;
    state.layers.clear();
    state.level = Math.min(state.level, data.levels.length);
    const frames = currentLevel().frames;
    if (state.frame !== null && (!state.steps || state.frame >= frames.length - 1)) state.frame = null;
    if (!state.view || (oldSize !== null && oldSize !== sizeOf(frames.at(-1)))) fit();
    updateLayerChoices();
    updateScrubber();
    updateStats();
    updateExports();
    updateLegend();
    updateCompare();
    showErrors();
    draw();
    inspect();
    document.body.dataset.state = 'ready';
    document.body.dataset.drawnAt = String(Date.now());
    document.body.dataset.version = String(data.version);
    document.body.dataset.seed = data.seed;
    document.body.dataset.recipe = state.path;
    document.body.dataset.w = String(frames.at(-1).width);
    document.body.dataset.h = String(frames.at(-1).height);
    writeFragment();
  }

  function sizeOf(frame) {
    return `${frame.width}x${frame.height}`;
  }

  function currentLevel() {
    return state.data.levels[state.level - 1];
  }

  function frameIndex() {
    const n = currentLevel().frames.length;
    return state.frame === null ? n - 1 : Math.min(state.frame, n - 1);
  }

  function currentFrame() {
    return currentLevel().frames[frameIndex()];
  }

  // ---- errors -------------------------------------------------------------------------------

  function showErrors() {
    const seen = new Set();
    const problems = [];
    for (const p of [...state.statusProblems, ...(state.requestProblems?.problems ?? [])]) {
      if (!seen.has(p.message)) {
        seen.add(p.message);
        problems.push(p);
      }
    }
    const box = $('errors');
    box.hidden = problems.length === 0;
    document.body.dataset.errors = String(problems.length);
    if (!problems.length) return;
    const refused = state.requestProblems && state.statusProblems.length === 0 &&
      ['request', 'too_large'].includes(state.requestProblems.kind);
    const kept = state.data ? 'the map shown is the last good one' : 'no good map yet';
    $('errors-title').textContent = refused ? `Refused — ${kept}` : `Error — ${kept}`;
    const list = $('error-list');
    list.textContent = '';
    for (const p of problems) {
      const li = document.createElement('li');
      if (p.file) {
        const where = `${p.file}:${p.line}${p.column ? `:${p.column}` : ''}`;
        const span = document.createElement('span');
        span.className = 'where';
        span.textContent = where;
        li.append(span, p.message.startsWith(where) ? p.message.slice(where.length) : `: ${p.message}`);
      } else {
        li.textContent = p.message;
      }
      list.append(li);
    }
  }

  /** Marks the controls of the parameters a refused request names. */
  function markInvalidParams() {
    const messages = (state.requestProblems?.problems ?? []).map((p) => p.message);
    for (const div of document.querySelectorAll('.param')) {
      const name = div.dataset.param;
      const bad = messages.some((m) => m.includes(`${name} = `) || m.includes(`'${name}'`));
      for (const input of div.querySelectorAll('input, select')) input.classList.toggle('invalid', bad);
    }
  }

  function setStatusLine(kind, text) {
    const line = $('status');
    line.className = kind;
    line.textContent = text;
  }

  // ---- controls -----------------------------------------------------------------------------

  function buildParams() {
    const box = $('params');
    box.textContent = '';
    for (const p of state.recipe.params) box.append(paramControl(p));
  }

  function paramControl(p) {
    const div = document.createElement('div');
    div.className = 'param';
    div.dataset.param = p.name;
    const head = document.createElement('div');
    head.className = 'name';
    const name = document.createElement('code');
    name.textContent = p.name;
    const range = document.createElement('span');
    range.className = 'range';
    range.textContent = p.range === 'any' ? p.type : p.range;
    head.append(name, range);
    const label = document.createElement('label');
    label.append(head);
    const inputs = document.createElement('div');
    inputs.className = 'inputs';
    const value = state.params[p.name] ?? p.default;
    const set = (text) => setParam(p, text);
    if (p.type === 'boolean') {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = value === 'true';
      box.addEventListener('change', () => set(box.checked ? 'true' : 'false'));
      inputs.append(box);
    } else if (p.choices.length) {
      const select = document.createElement('select');
      for (const c of p.choices) select.add(new Option(c, c));
      select.value = value;
      select.addEventListener('change', () => set(select.value));
      inputs.append(select);
    } else if (p.type === 'integer' || p.type === 'number') {
      const number = document.createElement('input');
      number.type = 'number';
      number.step = p.type === 'integer' ? '1' : 'any';
      if (p.min !== null) number.min = String(p.min);
      if (p.max !== null) number.max = String(p.max);
      number.value = value;
      const slidable = p.min !== null && p.max !== null && p.max > p.min &&
        (p.type === 'number' || p.max - p.min <= 100000);
      if (slidable) {
        const slider = document.createElement('input');
        slider.type = 'range';
        slider.min = String(p.min);
        slider.max = String(p.max);
        slider.step = p.type === 'integer' ? '1' : String((p.max - p.min) / 1000);
        slider.value = value;
        slider.setAttribute('aria-label', p.name);
        let timer = 0;
        slider.addEventListener('input', () => {
          number.value = slider.value;
          clearTimeout(timer);
          timer = setTimeout(() => set(slider.value), 100);
        });
        number.addEventListener('change', () => {
          slider.value = number.value;
          set(number.value.trim());
        });
        inputs.append(slider);
      } else {
        number.addEventListener('change', () => set(number.value.trim()));
      }
      inputs.append(number);
    } else {
      const text = document.createElement('input');
      text.type = 'text';
      text.value = value;
      text.addEventListener('change', () => set(text.value));
      inputs.append(text);
    }
    label.append(inputs);
    div.append(label);
    if (p.doc) {
      const doc = document.createElement('p');
      doc.className = 'doc';
      doc.textContent = p.doc;
      div.append(doc);
    }
    div.title = `${p.name}: ${p.range} (default ${p.default})`;
    div.classList.toggle('changed', value !== p.default);
    return div;
  }

  function setParam(p, text) {
    if (text === p.default) delete state.params[p.name];
    else state.params[p.name] = text;
    document.querySelector(`.param[data-param="${CSS.escape(p.name)}"]`)
      ?.classList.toggle('changed', text !== p.default);
    requestMap();
  }

  function validSeed(text) {
    if (!/^\d{1,20}$/.test(text ?? '')) return false;
    return BigInt(text) <= MAX_SEED;
  }

  function setSeed(text) {
    const seed = $('seed');
    if (!validSeed(text)) {
      seed.classList.add('invalid');
      seed.title = `a seed is a whole number from 0 to ${MAX_SEED}`;
      return;
    }
    state.seed = BigInt(text).toString();
    seed.value = state.seed;
    seed.classList.remove('invalid');
    seed.title = '';
    requestMap();
  }

  function stepSeed(by) {
    if (!validSeed(state.seed)) return;
    let s = BigInt(state.seed) + by;
    if (s < 0n) s = MAX_SEED;
    if (s > MAX_SEED) s = 0n;
    setSeed(s.toString());
  }

  function randomSeed() {
    setSeed(String(Math.floor(Math.random() * 1e9)));
  }

  function updateLayerChoices() {
    const final = currentLevel().frames.at(-1);
    if (!final.layers.includes(state.layer)) state.layer = 'terrain';
    const select = $('layer');
    const names = [...select.options].map((o) => o.value).join();
    if (names !== final.layers.join()) {
      select.textContent = '';
      for (const l of final.layers) select.add(new Option(l, l));
    }
    select.value = state.layer;
  }

  function updateScrubber() {
    const frames = currentLevel().frames;
    $('scrubber').hidden = !state.steps;
    const slider = $('frame');
    slider.max = String(frames.length - 1);
    slider.value = String(frameIndex());
    const i = frameIndex();
    const dropped = currentLevel().steps_dropped;
    let text = frames.length > 1
      ? `phase ${i + 1} of ${frames.length}: ${frames[i].label}`
      : 'the recipe took no map:snapshot';
    if (dropped) text += ` (${dropped} more not kept: too many cells)`;
    const label = $('frame-label');
    label.textContent = text;
    label.dataset.step = String(i);
    label.dataset.steps = String(frames.length);
    label.dataset.label = frames[i].label;
    const changed = stepChanges();
    $('step-changed').textContent = !changed ? ''
      : changed.sizes ? 'the map changed size in this phase'
      : `${changed.count} cell${changed.count === 1 ? '' : 's'} changed in this phase`;
    $('step-changed').dataset.cells = changed && !changed.sizes ? String(changed.count) : '';
    $('step-play').textContent = state.playing ? 'pause' : 'play';
  }

  /** Shows phase `i` of the current level (the finished map when past the last). */
  function goToFrame(i) {
    const n = currentLevel().frames.length;
    const at = Math.max(0, Math.min(n - 1, i));
    state.frame = at >= n - 1 ? null : at;
    updateScrubber();
    updateLegend();
    updateCompare();
    draw();
    inspect();
    writeFragment();
  }

  function stopPlaying() {
    clearInterval(state.playing);
    state.playing = 0;
    if (state.data) updateScrubber();
  }

  /** Plays the phases from the first (or from the one shown) to the finished map. */
  function togglePlay() {
    if (state.playing) {
      stopPlaying();
      return;
    }
    if (!state.data || !state.steps) return;
    const n = currentLevel().frames.length;
    if (frameIndex() >= n - 1) goToFrame(0);
    state.playing = setInterval(() => {
      const next = frameIndex() + 1;
      goToFrame(next);
      if (next >= currentLevel().frames.length - 1) stopPlaying();
    }, PLAY_EVERY);
    updateScrubber();
  }

  /** The cells the phase shown changed (against the phase before), or null on the first. */
  function stepChanges() {
    if (!state.steps) return null;
    const frames = currentLevel().frames;
    const i = frameIndex();
    return i > 0 ? cellDiff(frames[i - 1], frames[i]) : null;
  }

  /**
   * The cells whose terrain differs between two maps of one size: a mask, the count, and the
   * count of each change (`from → to`); `{ sizes: true }` when the sizes differ.
   */
  function cellDiff(from, to) {
    if (from.width !== to.width || from.height !== to.height) return { sizes: true };
    const cached = to.diffs?.get(from);
    if (cached) return cached;
    const mask = new Uint8Array(to.width * to.height);
    const changes = new Map();
    let count = 0;
    for (let i = 0; i < mask.length; i++) {
      const a = from.terrains[from.terrainIds[i]].name;
      const b = to.terrains[to.terrainIds[i]].name;
      if (a === b) continue;
      mask[i] = 1;
      count++;
      const key = `${a} → ${b}`;
      changes.set(key, (changes.get(key) ?? 0) + 1);
    }
    const out = { mask, count, changes };
    to.diffs ??= new WeakMap();
    to.diffs.set(from, out);
    return out;
  }

  function updateStats() {
    const level = currentLevel();
    const body = $('stats').tBodies[0];
    body.textContent = '';
    const row = (name, value, group) => {
      const tr = body.insertRow();
      if (group) tr.className = 'group';
      tr.insertCell().textContent = name;
      tr.insertCell().textContent = value;
    };
    const f = level.frames.at(-1);
    row('size', `${f.width} × ${f.height}`);
    for (const [name, v] of level.metrics) row(name, formatNumber(v));
    row('time', '', true);
    row('generation', `${level.time_ms.toFixed(2)} ms`);
    for (const [name, ms] of level.phases) row(`phase ${name}`, `${ms.toFixed(2)} ms`);
    if (state.data.levels.length > 1) {
      const all = state.data.levels.reduce((t, l) => t + l.time_ms, 0);
      row('all levels', `${all.toFixed(2)} ms`);
    }
  }

  function formatNumber(v) {
    if (Number.isInteger(v)) return String(v);
    return String(+v.toFixed(4));
  }

  function updateExports() {
    const q = new URLSearchParams(state.dataQuery);
    q.delete('steps');
    // The Tiled map is the terrain: no layer, no scale.
    $('download-tiled').href = '/api/export.tiled.zip?' + q.toString();
    if (state.layer !== 'terrain') q.set('layer', state.layer);
    $('download-json').href = '/api/export.json?' + q.toString();
    const scale = parseInt($('png-scale').value, 10);
    if (scale >= 1 && scale <= 64) q.set('scale', String(scale));
    $('download-png').href = '/api/export.png?' + q.toString();
    $('command').value = commandLine();
  }

  /** The `warren run` line that makes the map on screen. */
  function commandLine() {
    const s = state.session;
    const parts = ['warren', 'run', state.path, '--seed', state.seed];
    for (const [k, v] of changedParams()) parts.push('--set', `${k}=${v}`);
    if (s.levels !== 1) parts.push('--levels', String(s.levels));
    if (s.regions) parts.push('--regions', s.regions);
    if (state.layer !== 'terrain') parts.push('--layer', state.layer);
    parts.push(...s.flags);
    return parts.map(quote).join(' ');
  }

  /** The `warren batch` line that makes the statistics of the sweep panel. */
  function batchLine(seeds) {
    const s = state.session;
    const parts = ['warren', 'batch', state.path, '--count', String(seeds.count)];
    if (seeds.start !== '0') parts.push('--seed-start', seeds.start);
    for (const [k, v] of changedParams()) parts.push('--set', `${k}=${v}`);
    if (s.regions) parts.push('--regions', s.regions);
    parts.push(...s.flags);
    return parts.map(quote).join(' ');
  }

  function quote(word) {
    return /^[A-Za-z0-9_./:=,+@%-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
  }

  async function copyCommand() {
    const input = $('command');
    const button = $('copy-command');
    let copied = false;
    try {
      await navigator.clipboard.writeText(input.value);
      copied = true;
    } catch {
      input.select();
      copied = document.execCommand('copy');
    }
    button.textContent = copied ? 'copied' : 'select and copy it yourself';
    setTimeout(() => (button.textContent = 'copy command'), 1500);
  }

  // ---- the legend ---------------------------------------------------------------------------

  /**
   * The terrains, regions or priorities of the map shown (B), each with the colour the region
   * data (or the layer) gives it and its number of cells; only those the map holds.
   */
  function legendEntries(f, kind) {
    const n = f.width * f.height;
    if (kind === 'terrain') {
      const counts = new Array(f.terrains.length).fill(0);
      for (let i = 0; i < n; i++) counts[f.terrainIds[i]]++;
      return f.terrains
        .map((t, id) => ({ key: id, name: t.name, glyph: t.glyph, color: t.color, count: counts[id], note: t.solid ? 'solid' : 'open' }))
        .filter((e) => e.count > 0);
    }
    if (kind === 'region') {
      const counts = new Array(f.regions.length).fill(0);
      for (let i = 0; i < n; i++) counts[f.regionIds[i]]++;
      return f.regions
        .map((name, id) => ({
          key: id,
          name: id === 0 ? 'no region' : name,
          glyph: f.region_styles[id][0],
          color: f.region_styles[id][1] || null,
          count: counts[id],
          note: '',
        }))
        .filter((e) => e.count > 0);
    }
    const counts = new Map();
    for (let i = 0; i < n; i++) counts.set(f.priorities[i], (counts.get(f.priorities[i]) ?? 0) + 1);
    return f.priority_styles.map(([value, glyph, color]) => {
      const named = state.data.priorities.find(([, v]) => v === value);
      return {
        key: value,
        name: value === 0 ? 'never written with a priority' : named ? named[0] : '',
        glyph: value === 0 ? '' : String(value),
        color: color || null,
        count: counts.get(value) ?? 0,
        note: value === 0 ? '' : `drawn ${glyph}`,
      };
    });
  }

  /** Which cells of `f` the legend entry clicked stands for. */
  function highlightMask(f) {
    const { kind, key } = state.highlight;
    const cells = kind === 'terrain' ? f.terrainIds : kind === 'region' ? f.regionIds : f.priorities;
    const mask = new Uint8Array(cells.length);
    if (kind === 'terrain') {
      // By name: a map of another version may number its terrains differently.
      const name = state.highlight.name;
      for (let i = 0; i < cells.length; i++) mask[i] = f.terrains[cells[i]].name === name ? 1 : 0;
    } else {
      for (let i = 0; i < cells.length; i++) mask[i] = cells[i] === key ? 1 : 0;
    }
    return mask;
  }

  function updateLegend() {
    if (!state.data) return;
    const f = currentFrame();
    const kind = state.legendKind;
    $('legend-kind').value = kind;
    const body = $('legend-table').tBodies[0];
    body.textContent = '';
    const entries = legendEntries(f, kind);
    const total = f.width * f.height;
    for (const e of entries) {
      const tr = body.insertRow();
      tr.className = 'legend-entry';
      Object.assign(tr.dataset, { kind, key: String(e.key), name: e.name, glyph: e.glyph, color: e.color ?? '', count: String(e.count) });
      const on = state.highlight && state.highlight.kind === kind &&
        (kind === 'terrain' ? state.highlight.name === e.name : state.highlight.key === e.key);
      tr.classList.toggle('on', Boolean(on));
      tr.tabIndex = 0;
      tr.title = 'Click to mark these cells on the map';
      const look = tr.insertCell();
      const swatch = document.createElement('span');
      swatch.className = e.color ? 'swatch' : 'swatch none';
      if (e.color) swatch.style.background = e.color;
      const glyph = document.createElement('code');
      glyph.textContent = e.glyph;
      look.append(swatch, glyph);
      const name = tr.insertCell();
      name.textContent = e.name + (e.note ? ` · ${e.note}` : '');
      const count = tr.insertCell();
      count.textContent = `${e.count} · ${((100 * e.count) / total).toFixed(1)}%`;
      const pick = () => {
        state.highlight = on ? null : { kind, key: e.key, name: e.name };
        updateLegend();
        draw();
      };
      tr.addEventListener('click', pick);
      tr.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          pick();
        }
      });
    }
    document.body.dataset.legend = kind;
  }

  // ---- comparison ---------------------------------------------------------------------------

  /** Keeps the live map as A. */
  function pinA() {
    if (!state.data) return;
    const params = changedParams().map(([k, v]) => `${k}=${v}`).join(' ');
    state.a = {
      data: state.data,
      query: state.dataQuery,
      level: state.level,
      frame: state.frame,
      label: `${state.path} · seed ${state.seed}${params ? ` · ${params}` : ''} · version ${state.data.version}`,
    };
    updateCompare();
    requestAnimationFrame(() => {
      draw();
    });
  }

  function unpinA() {
    state.a = null;
    updateCompare();
    requestAnimationFrame(() => draw());
  }

  /** A's frame: the level and phase pinned, or the finished map. */
  function frameOfA() {
    const a = state.a;
    const level = Math.min(a.level, a.data.levels.length);
    const frames = a.data.levels[level - 1].frames;
    const index = a.frame === null ? frames.length - 1 : Math.min(a.frame, frames.length - 1);
    return { level, index, frame: frames[index] };
  }

  /** What the diff compares B's map with: A when pinned, else the map the last save replaced. */
  function referenceFrame() {
    if (state.a) return frameOfA().frame;
    const b = state.before;
    if (!b) return null;
    const level = Math.min(state.level, b.data.levels.length);
    return b.data.levels[level - 1].frames.at(-1);
  }

  function updateCompare() {
    const pinned = Boolean(state.a);
    $('pin-a').textContent = pinned ? 'pin this map as A' : 'pin as A';
    $('unpin-a').hidden = !pinned;
    $('pinned-a').hidden = !pinned;
    $('pinned-a').textContent = pinned ? `A: ${state.a.label}` : '';
    $('side-by-side-label').hidden = !pinned;
    $('diff-against').textContent = pinned ? 'A' : 'the map before the last save';
    const box = $('diff-summary');
    const count = $('diff-count');
    box.hidden = !state.diff;
    count.dataset.cells = '';
    const tbody = $('diff-table').tBodies[0];
    tbody.textContent = '';
    if (!state.diff || !state.data) return;
    const ref = referenceFrame();
    if (!ref) {
      count.textContent = 'No save has changed this map since it was shown: save a file, or pin a map as A.';
      return;
    }
    const live = currentFrame();
    const d = cellDiff(ref, live);
    if (d.sizes) {
      count.textContent = `The sizes differ: ${ref.width}×${ref.height} against ${live.width}×${live.height}.`;
      return;
    }
    count.dataset.cells = String(d.count);
    count.textContent = `${d.count} of ${live.width * live.height} cells differ`;
    const changes = [...d.changes].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    for (const [change, n] of changes) {
      const tr = tbody.insertRow();
      tr.dataset.change = change;
      tr.dataset.count = String(n);
      tr.insertCell().textContent = change;
      tr.insertCell().textContent = String(n);
    }
  }

  // ---- drawing ------------------------------------------------------------------------------

  /** A picture of one layer at one pixel per cell, and its glyphs. */
  function picture(width, height, palette, ids) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    const image = context.createImageData(width, height);
    const rgb = palette.map(([, color]) => [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)));
    const d = image.data;
    for (let i = 0; i < ids.length; i++) {
      const c = rgb[ids[i]];
      d[4 * i] = c[0];
      d[4 * i + 1] = c[1];
      d[4 * i + 2] = c[2];
      d[4 * i + 3] = 255;
    }
    context.putImageData(image, 0, 0);
    return { canvas, width, height, ids, glyphs: palette.map(([g]) => g), colors: palette.map(([, c]) => c) };
  }

  function terrainPicture(frame) {
    frame.picture ??= picture(
      frame.width, frame.height, frame.terrains.map((t) => [t.glyph, t.color]), frame.terrainIds,
    );
    return frame.picture;
  }

  /**
   * The picture of the chosen layer for frame `index` of `level` of generation `data`
   * (answering `query`): fetched once per map, level, step and layer; the terrain meanwhile.
   */
  function layerPicture(data, query, level, index) {
    const frame = data.levels[level - 1].frames[index];
    if (state.layer === 'terrain' || !frame.layers.includes(state.layer)) return terrainPicture(frame);
    const key = `${data.version}|${query}|${level}/${index}/${state.layer}`;
    const known = state.layers.get(key);
    if (known && known !== 'loading') return known;
    if (!known) fetchLayer(key, query, level, index, data.levels[level - 1].frames.length);
    return terrainPicture(frame);
  }

  /** Layers kept for the maps on screen (A and B, their steps). */
  const LAYERS_KEPT = 32;

  async function fetchLayer(key, query, level, index, frames) {
    state.layers.set(key, 'loading');
    while (state.layers.size > LAYERS_KEPT) state.layers.delete(state.layers.keys().next().value);
    const q = new URLSearchParams(query);
    q.set('layer', state.layer);
    q.set('level', String(level));
    if (index < frames - 1) q.set('frame', String(index));
    try {
      const answer = await fetch('/api/layer?' + q.toString(), { cache: 'no-store' });
      const body = await answer.json();
      if (!answer.ok) {
        state.layers.delete(key);
        state.requestProblems = body.error;
        showErrors();
        return;
      }
      state.layers.set(key, picture(body.width, body.height, body.palette, unpack(body.cells)));
      draw();
      inspect();
    } catch {
      state.layers.delete(key);
    }
  }

  /** The layer picture of the map B shows (the live one). */
  function livePicture() {
    return layerPicture(state.data, state.dataQuery, state.level, frameIndex());
  }

  /** A picture with `rgb` on the cells `mask` marks, transparent elsewhere. */
  function markPicture(width, height, mask, rgb) {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    const image = context.createImageData(width, height);
    const d = image.data;
    for (let i = 0; i < mask.length; i++) {
      if (!mask[i]) continue;
      d[4 * i] = rgb[0];
      d[4 * i + 1] = rgb[1];
      d[4 * i + 2] = rgb[2];
      d[4 * i + 3] = 255;
    }
    context.putImageData(image, 0, 0);
    return canvas;
  }

  /** The marks over a frame: the legend entry clicked, the diff, what the phase changed. */
  function marksOf(frame, isLive) {
    const marks = [];
    if (state.highlight) {
      const key = `highlight:${state.highlight.kind}:${state.highlight.key}`;
      frame.marks ??= new Map();
      if (!frame.marks.has(key)) {
        frame.marks.set(key, markPicture(frame.width, frame.height, highlightMask(frame), MARKS.highlight));
      }
      marks.push(frame.marks.get(key));
    }
    const ref = state.diff ? referenceFrame() : null;
    if (ref && isLive) {
      const d = cellDiff(ref, frame);
      if (!d.sizes) {
        d.picture ??= markPicture(frame.width, frame.height, d.mask, MARKS.diff);
        marks.push(d.picture);
      }
    }
    if (ref && !isLive && state.a) {
      const d = cellDiff(ref, liveFrame());
      if (!d.sizes) {
        d.picture ??= markPicture(frame.width, frame.height, d.mask, MARKS.diff);
        marks.push(d.picture);
      }
    }
    if (isLive && state.stepChanges) {
      const d = stepChanges();
      if (d && !d.sizes) {
        d.picture ??= markPicture(frame.width, frame.height, d.mask, MARKS.step);
        marks.push(d.picture);
      }
    }
    return marks;
  }

  /** The live map's frame (B). */
  function liveFrame() {
    return currentFrame();
  }

  /** Draws both views: A (when pinned and shown beside) and B. */
  function draw() {
    const showA = Boolean(state.a) && state.sideBySide;
    $('view-a').hidden = !showA;
    $('label-b').hidden = !showA;
    drawView($('map'), state.data ? { frame: currentFrame(), pic: state.data && state.view ? livePicture() : null, live: true } : null);
    if (showA) {
      const a = frameOfA();
      drawView($('map-a'), a ? { frame: a.frame, pic: layerPicture(state.a.data, state.a.query, a.level, a.index), live: false } : null);
    }
    if (state.view) $('zoom-level').textContent = `${+state.view.zoom.toFixed(2)} px/cell`;
  }

  /** Whether the last drawing of B drew glyphs. */
  let glyphsDrawn = false;

  /** Draws one map into one canvas, at the shared view. */
  function drawView(canvas, shown) {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(canvas.clientWidth * dpr);
    const h = Math.round(canvas.clientHeight * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#0c0c0c';
    ctx.fillRect(0, 0, w, h);
    if (!shown || !state.view) return;
    const { frame, pic } = shown;
    const z = state.view.zoom * dpr;
    const ox = Math.round(state.view.x * dpr);
    const oy = Math.round(state.view.y * dpr);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(pic.canvas, ox, oy, pic.width * z, pic.height * z);
    const glyphs = state.glyphs === 'on' || (state.glyphs === 'auto' && state.view.zoom >= glyphZoom(pic));
    if (glyphs) drawGlyphs(ctx, pic, z, ox, oy, w, h);
    if (shown.live) glyphsDrawn = glyphs;
    const marks = marksOf(frame, shown.live);
    if (marks.length) {
      ctx.globalAlpha = 0.6;
      for (const m of marks) ctx.drawImage(m, ox, oy, frame.width * z, frame.height * z);
      ctx.globalAlpha = 1;
    }
    drawOverlays(ctx, frame, z, ox, oy);
    const marked = state.pinned ?? state.hover;
    if (marked) {
      // A light frame around the cell inside a dark one, visible on any terrain.
      const [x, y, side] = [ox + marked.x * z, oy + marked.y * z, Math.max(z, 1)];
      ctx.lineWidth = 2 * dpr;
      ctx.strokeStyle = '#000000';
      ctx.strokeRect(x - 2 * dpr, y - 2 * dpr, side + 4 * dpr, side + 4 * dpr);
      ctx.lineWidth = dpr;
      ctx.strokeStyle = state.pinned ? '#ffd966' : '#ffffff';
      ctx.strokeRect(x - 0.5 * dpr, y - 0.5 * dpr, side + dpr, side + dpr);
    }
  }

  /**
   * The zoom from which "when zoomed in" draws glyphs: GLYPH_ZOOM, or a smaller one for a picture
   * whose glyphs say what its colours do not (several glyphs share a colour, as in townmaze's
   * debug view, whose status letters and street arrows are all near-white): there the glyphs
   * are the information, and a fitted map must show them.
   */
  function glyphZoom(pic) {
    if (pic.glyphsMatter === undefined) {
      const used = new Uint8Array(pic.glyphs.length);
      for (let i = 0; i < pic.ids.length; i++) used[pic.ids[i]] = 1;
      const byColor = new Map();
      for (let id = 0; id < pic.glyphs.length; id++) {
        if (!used[id] || pic.glyphs[id] === ' ') continue;
        const seen = byColor.get(pic.colors[id]) ?? new Set();
        seen.add(pic.glyphs[id]);
        byColor.set(pic.colors[id], seen);
      }
      pic.glyphsMatter = [...byColor.values()].some((glyphs) => glyphs.size >= 3);
    }
    return pic.glyphsMatter ? GLYPH_ZOOM_WHEN_GLYPHS_MATTER : GLYPH_ZOOM;
  }

  /** Glyphs over the dimmed cells, for the cells on screen only. */
  function drawGlyphs(ctx, pic, z, ox, oy, w, h) {
    ctx.fillStyle = 'rgba(0, 0, 0, 0.72)';
    ctx.fillRect(ox, oy, pic.width * z, pic.height * z);
    const x0 = Math.max(0, Math.floor(-ox / z));
    const y0 = Math.max(0, Math.floor(-oy / z));
    const x1 = Math.min(pic.width, Math.ceil((w - ox) / z));
    const y1 = Math.min(pic.height, Math.ceil((h - oy) / z));
    ctx.font = `${Math.floor(z * 0.85)}px ui-monospace, "DejaVu Sans Mono", monospace`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const id = pic.ids[x + y * pic.width];
        const g = pic.glyphs[id];
        if (g === ' ') continue;
        ctx.fillStyle = pic.colors[id];
        ctx.fillText(g, ox + (x + 0.5) * z, oy + (y + 0.55) * z);
      }
    }
  }

  function drawOverlays(ctx, f, z, ox, oy) {
    const on = state.overlays;
    if (!on.size) return;
    const cx = (x) => ox + (x + 0.5) * z;
    const cy = (y) => oy + (y + 0.5) * z;
    const line = Math.max(1, Math.min(3, z / 5));
    if (on.has('corridors')) {
      ctx.strokeStyle = OVERLAYS.corridors;
      ctx.globalAlpha = 0.8;
      ctx.lineWidth = Math.max(1, z * 0.25);
      ctx.lineJoin = 'round';
      for (const c of f.corridors) {
        ctx.beginPath();
        let last = null;
        for (const p of c.cells) {
          const near = last && Math.abs(p.x - last.x) <= 1 && Math.abs(p.y - last.y) <= 1;
          if (near) ctx.lineTo(cx(p.x), cy(p.y));
          else ctx.moveTo(cx(p.x), cy(p.y));
          last = p;
        }
        if (c.cells.length === 1) ctx.lineTo(cx(c.cells[0].x) + 0.1, cy(c.cells[0].y));
        ctx.stroke();
      }
      ctx.globalAlpha = 1;
    }
    if (on.has('rooms')) {
      ctx.strokeStyle = OVERLAYS.rooms;
      ctx.lineWidth = line;
      ctx.fillStyle = OVERLAYS.rooms;
      ctx.font = `${Math.max(10, Math.min(14, z * 0.8))}px system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      for (const r of f.rooms) {
        ctx.strokeRect(ox + r.x * z + line / 2, oy + r.y * z + line / 2, r.w * z - line, r.h * z - line);
        if (z >= 6) ctx.fillText(r.kind, ox + r.x * z + line + 2, oy + r.y * z + line + 1);
      }
    }
    if (on.has('doors')) {
      ctx.fillStyle = OVERLAYS.doors;
      const s = Math.max(2, z * 0.5);
      for (const d of f.doors) ctx.fillRect(cx(d.x) - s / 2, cy(d.y) - s / 2, s, s);
    }
    if (on.has('stairs')) {
      const s = Math.max(3, z * 0.45);
      const triangle = (p, up, color) => {
        ctx.fillStyle = color;
        ctx.beginPath();
        const dy = up ? -s : s;
        ctx.moveTo(cx(p.x), cy(p.y) + dy);
        ctx.lineTo(cx(p.x) - s, cy(p.y) - dy);
        ctx.lineTo(cx(p.x) + s, cy(p.y) - dy);
        ctx.closePath();
        ctx.fill();
      };
      for (const p of f.stairs.up) triangle(p, true, OVERLAYS.stairs);
      for (const p of f.stairs.down) triangle(p, false, '#ff6060');
    }
    if (on.has('spawns')) {
      ctx.fillStyle = OVERLAYS.spawns;
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 1;
      const r = Math.max(2, z * 0.3);
      for (const p of f.spawns) {
        ctx.beginPath();
        ctx.arc(cx(p.x), cy(p.y), r, 0, 2 * Math.PI);
        ctx.fill();
        ctx.stroke();
      }
    }
  }

  // ---- view ---------------------------------------------------------------------------------

  function fit() {
    if (!state.data) return;
    const f = currentFrame();
    const stage = $('map');
    const w = stage.clientWidth || 800;
    const h = stage.clientHeight || 600;
    let zoom = Math.min(w / f.width, h / f.height) * 0.96;
    if (zoom >= 2) zoom = Math.floor(zoom);
    zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    state.view = { zoom, x: Math.round((w - f.width * zoom) / 2), y: Math.round((h - f.height * zoom) / 2) };
    writeFragment();
  }

  function zoomAt(px, py, factor) {
    const v = state.view;
    if (!v) return;
    const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, v.zoom * factor));
    state.view = { zoom, x: px - ((px - v.x) * zoom) / v.zoom, y: py - ((py - v.y) * zoom) / v.zoom };
    draw();
    writeFragment();
  }

  /** Moves the map by a tenth of the window. */
  function pan(dx, dy) {
    if (!state.view) return;
    const canvas = $('map');
    state.view = {
      ...state.view,
      x: state.view.x + Math.round(dx * canvas.clientWidth / 10),
      y: state.view.y + Math.round(dy * canvas.clientHeight / 10),
    };
    draw();
    writeFragment();
  }

  function cellAt(px, py) {
    if (!state.data || !state.view) return null;
    const f = currentFrame();
    const dpr = window.devicePixelRatio || 1;
    const x = Math.floor((px * dpr - Math.round(state.view.x * dpr)) / (state.view.zoom * dpr));
    const y = Math.floor((py * dpr - Math.round(state.view.y * dpr)) / (state.view.zoom * dpr));
    return x >= 0 && y >= 0 && x < f.width && y < f.height ? { x, y } : null;
  }

  // ---- the cell inspector -------------------------------------------------------------------

  /** Every annotation on each cell of a frame, built once per frame. */
  function notesOf(f) {
    if (f.notes) return f.notes;
    const notes = new Map();
    const add = (p, note) => {
      const i = p.x + p.y * f.width;
      if (!notes.has(i)) notes.set(i, []);
      notes.get(i).push(note);
    };
    f.corridors.forEach((c, n) => {
      const seen = new Set();
      c.cells.forEach((p, step) => {
        const i = p.x + p.y * f.width;
        if (seen.has(i)) return;
        seen.add(i);
        const region = c.region ? ` (${c.region})` : '';
        add(p, ['corridor', `corridor ${n + 1}${region} · cell ${step + 1} of ${c.cells.length}`]);
      });
    });
    for (const d of f.doors) {
      // A door's state (closed, open, locked, secret, broken) and kind (its [[door]] name).
      const kind = d.kind ? ` · kind “${d.kind}”` : '';
      add(d, ['door', `door · ${d.state}${kind}`, undefined, { state: d.state, doorKind: d.kind ?? '' }]);
    }
    for (const p of f.stairs.up) add(p, ['up stairs', 'up stairs']);
    for (const p of f.stairs.down) add(p, ['down stairs', 'down stairs']);
    for (const s of f.spawns) add(s, ['spawn', `spawn: ${s.what}`, s.what]);
    f.notes = notes;
    return notes;
  }

  function inspect() {
    const cell = state.pinned ?? state.hover;
    const dl = $('inspector');
    const list = $('cell-notes');
    $('pinned').hidden = !state.pinned;
    const f = state.data ? currentFrame() : null;
    if (!cell || !f || cell.x >= f.width || cell.y >= f.height) {
      dl.hidden = true;
      list.textContent = '';
      $('inspector-empty').hidden = false;
      return;
    }
    const i = cell.x + cell.y * f.width;
    const t = f.terrains[f.terrainIds[i]];
    const field = (name, text) => (dl.querySelector(`[data-field="${name}"]`).textContent = text);
    field('xy', `${cell.x}, ${cell.y}`);
    const terrain = dl.querySelector('[data-field="terrain"]');
    terrain.textContent = '';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = t.color;
    const name = document.createElement('span');
    name.dataset.name = '';
    name.textContent = t.name;
    terrain.append(swatch, name, ` “${t.glyph}” · ${t.solid ? 'solid' : 'open'}`);
    terrain.dataset.terrain = t.name;
    terrain.dataset.solid = String(t.solid);
    const region = f.regions[f.regionIds[i]];
    field('region', region || '—');
    const p = f.priorities[i];
    const named = state.data.priorities.find(([, v]) => v === p);
    field('priority', p === 0 ? '0 · never written with a priority' : `${p}${named ? ` · ${named[0]}` : ''}`);
    const layered = state.layer !== 'terrain' ? state.layers.get(`${state.level}/${frameIndex()}/${state.layer}`) : null;
    const showLayer = layered && layered !== 'loading';
    $('layer-term').hidden = !showLayer;
    dl.querySelector('[data-field="layer"]').hidden = !showLayer;
    if (showLayer) field('layer', `${state.layer}: “${layered.glyphs[layered.ids[i]]}”`);
    list.textContent = '';
    const item = (kind, text, extra, data = {}) => {
      const li = document.createElement('li');
      li.dataset.kind = kind;
      if (extra !== undefined) li.dataset.what = extra;
      Object.assign(li.dataset, data);
      li.textContent = text;
      list.append(li);
    };
    f.rooms.forEach((r, n) => {
      if (cell.x >= r.x && cell.x < r.x + r.w && cell.y >= r.y && cell.y < r.y + r.h) {
        item('room', `room ${n + 1} · ${r.kind} · ${r.w}×${r.h} at ${r.x}, ${r.y}`);
      }
    });
    for (const [kind, text, extra, data] of notesOf(f).get(i) ?? []) item(kind, text, extra, data);
    dl.hidden = false;
    $('inspector-empty').hidden = true;
  }

  // ---- wiring -------------------------------------------------------------------------------

  function wire() {
    for (const canvas of [$('map'), $('map-a')]) wireCanvas(canvas);
    wireControls();
  }

  /** Pan, zoom, hover and pin on one of the two views (they share the view). */
  function wireCanvas(canvas) {
    let drag = null;
    canvas.addEventListener('pointerdown', (e) => {
      if (!state.view) return;
      drag = { x: e.clientX, y: e.clientY, vx: state.view.x, vy: state.view.y, moved: false };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointermove', (e) => {
      if (drag) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        if (drag.moved) {
          canvas.classList.add('dragging');
          state.view = { ...state.view, x: drag.vx + dx, y: drag.vy + dy };
          draw();
          return;
        }
      }
      const cell = cellAt(e.offsetX, e.offsetY);
      if (cell?.x !== state.hover?.x || cell?.y !== state.hover?.y) {
        state.hover = cell;
        inspect();
        draw();
      }
    });
    canvas.addEventListener('pointerup', (e) => {
      if (drag && !drag.moved) {
        const cell = cellAt(e.offsetX, e.offsetY);
        const same = cell && state.pinned && cell.x === state.pinned.x && cell.y === state.pinned.y;
        state.pinned = same ? null : cell;
        inspect();
        draw();
        writeFragment();
      }
      if (drag?.moved) writeFragment();
      drag = null;
      canvas.classList.remove('dragging');
    });
    canvas.addEventListener('pointerleave', () => {
      if (drag) return;
      state.hover = null;
      inspect();
      draw();
    });
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      const steps = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      zoomAt(e.offsetX, e.offsetY, Math.exp(-steps * 0.0015));
    }, { passive: false });
  }

  function wireControls() {
    const canvas = $('map');
    const centre = () => [canvas.clientWidth / 2, canvas.clientHeight / 2];
    $('zoom-in').addEventListener('click', () => zoomAt(...centre(), 1.25));
    $('zoom-out').addEventListener('click', () => zoomAt(...centre(), 0.8));
    $('fit').addEventListener('click', () => {
      fit();
      draw();
    });
    new ResizeObserver(() => draw()).observe($('stage'));

    $('seed').addEventListener('change', () => setSeed($('seed').value.trim()));
    $('seed-prev').addEventListener('click', () => stepSeed(-1n));
    $('seed-next').addEventListener('click', () => stepSeed(1n));
    $('seed-random').addEventListener('click', randomSeed);
    $('params-reset').addEventListener('click', () => {
      state.params = {};
      if (state.recipe) buildParams();
      requestMap();
    });
    $('level').addEventListener('change', () => {
      state.level = parseInt($('level').value, 10);
      state.frame = null;
      if (!state.data) return;
      state.level = Math.min(state.level, state.data.levels.length);
      updateLayerChoices();
      updateScrubber();
      updateStats();
      updateLegend();
      updateCompare();
      draw();
      inspect();
      writeFragment();
    });
    $('layer').addEventListener('change', () => {
      state.layer = $('layer').value;
      if (['terrain', 'region', 'priority'].includes(state.layer)) state.legendKind = state.layer;
      if (state.data) {
        updateExports();
        updateLegend();
      }
      draw();
      inspect();
      writeFragment();
    });
    $('legend-kind').addEventListener('change', () => {
      state.legendKind = $('legend-kind').value;
      updateLegend();
      draw();
    });
    $('recipe').addEventListener('change', () => {
      const path = $('recipe').value;
      if (path === state.path) return;
      state.params = {};
      state.frame = null;
      openRecipe(path);
      // The new entry is pushed now, while the choice is a user action: pushed only when the
      // map arrives (seconds later on a busy machine), Chromium may skip it on Back.
      writeFragment();
    });
    $('recipe').addEventListener('focus', refreshRecipes);
    $('pin-a').addEventListener('click', pinA);
    $('unpin-a').addEventListener('click', unpinA);
    $('side-by-side').addEventListener('change', () => {
      state.sideBySide = $('side-by-side').checked;
      requestAnimationFrame(() => draw());
    });
    $('diff').addEventListener('change', () => {
      state.diff = $('diff').checked;
      updateCompare();
      draw();
    });
    $('errors-fold').addEventListener('click', () => {
      const list = $('error-list');
      list.hidden = !list.hidden;
      $('errors-fold').textContent = list.hidden ? 'show details' : 'hide details';
      $('errors-fold').setAttribute('aria-expanded', String(!list.hidden));
    });
    $('step-first').addEventListener('click', () => { stopPlaying(); goToFrame(0); });
    $('step-prev').addEventListener('click', () => { stopPlaying(); goToFrame(frameIndex() - 1); });
    $('step-next').addEventListener('click', () => { stopPlaying(); goToFrame(frameIndex() + 1); });
    $('step-last').addEventListener('click', () => { stopPlaying(); goToFrame(Infinity); });
    $('step-play').addEventListener('click', togglePlay);
    $('step-changes').addEventListener('change', () => {
      state.stepChanges = $('step-changes').checked;
      draw();
    });
    window.addEventListener('popstate', followFragment);
    window.addEventListener('hashchange', followFragment);
    $('glyphs').addEventListener('change', () => {
      state.glyphs = $('glyphs').value;
      draw();
      writeFragment();
    });
    for (const box of document.querySelectorAll('#overlays input')) {
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = OVERLAYS[box.value];
      box.after(swatch);
      box.addEventListener('change', () => {
        if (box.checked) state.overlays.add(box.value);
        else state.overlays.delete(box.value);
        draw();
        writeFragment();
      });
    }
    $('steps').addEventListener('change', () => {
      stopPlaying();
      state.steps = $('steps').checked;
      state.frame = state.steps ? 0 : null;
      requestMap();
    });
    $('frame').addEventListener('input', () => {
      stopPlaying();
      goToFrame(parseInt($('frame').value, 10));
    });
    $('png-scale').addEventListener('change', () => state.data && updateExports());
    $('copy-command').addEventListener('click', copyCommand);
    document.addEventListener('keydown', (e) => {
      if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
      const [px, py] = centre();
      const keys = {
        f: () => { fit(); draw(); },
        '+': () => zoomAt(px, py, 1.25),
        '=': () => zoomAt(px, py, 1.25),
        '-': () => zoomAt(px, py, 0.8),
        ',': () => stepSeed(-1n),
        '.': () => stepSeed(1n),
        r: randomSeed,
        p: togglePlay,
        '[': () => state.steps && state.data && goToFrame(frameIndex() - 1),
        ']': () => state.steps && state.data && goToFrame(frameIndex() + 1),
        Home: () => state.steps && state.data && goToFrame(0),
        End: () => state.steps && state.data && goToFrame(Infinity),
        Escape: () => { state.pinned = null; inspect(); draw(); writeFragment(); },
        ArrowLeft: () => pan(1, 0),
        ArrowRight: () => pan(-1, 0),
        ArrowUp: () => pan(0, 1),
        ArrowDown: () => pan(0, -1),
      };
      if (keys[e.key]) {
        e.preventDefault();
        keys[e.key]();
      }
    });
  }

  /** The recipe picker's choices, read again (a recipe saved since appears). */
  async function refreshRecipes() {
    const answer = await fetch('/api/recipes', { cache: 'no-store' }).catch(() => null);
    if (answer?.ok) updateRecipes((await answer.json()).recipes);
  }

  /** The page address of seed `seed`'s map, with the recipe and parameters shown. */
  function seedLink(seed) {
    const h = new URLSearchParams();
    h.set('recipe', state.path);
    h.set('seed', seed);
    for (const [k, v] of changedParams()) h.append('set', `${k}=${v}`);
    return '#' + h.toString();
  }

  const sweep = new Sweep({ link: seedLink, command: batchLine });

  // A small read-only view of the page for scripts and tests: where the map is drawn.
  window.warren = Object.freeze({
    view: () => (state.view ? { ...state.view } : null),
    seed: () => state.seed,
    recipe: () => state.path,
    params: () => ({ ...state.params }),
    frame: () => (state.data ? frameIndex() : null),
    glyphsDrawn: () => glyphsDrawn,
  });

  wire();
  state.path = fragment.recipe ?? null;
  connect(state.path);
}
