// warren serve: the page. Plain JavaScript, no build step, no network beyond this server.
//
// The server pushes a `status` event after every reload (recipe, parameters, problems); the
// page then asks /api/map for its own seed and parameters, and draws the answer on a canvas.
// The page's state (seed, parameters, level, layer, view) lives in the URL's #fragment, so a
// reload or a shared link shows the same map.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const MAX_SEED = (1n << 64n) - 1n;
  /** CSS pixels per cell from which "when zoomed in" draws glyphs. */
  const GLYPH_ZOOM = 16;
  const MIN_ZOOM = 0.05;
  const MAX_ZOOM = 128;
  const OVERLAYS = {
    rooms: '#ffc83c',
    corridors: '#50c8ff',
    doors: '#ff8c00',
    stairs: '#60ff60',
    spawns: '#ff40ff',
  };

  const state = {
    session: null, // what `warren serve` was started with
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
  };

  // ---- the URL fragment -------------------------------------------------------------------

  function readFragment() {
    const h = new URLSearchParams(location.hash.slice(1));
    const out = {};
    if (h.has('seed')) out.seed = h.get('seed');
    if (h.has('set')) out.sets = h.getAll('set').map(splitSet).filter(Boolean);
    if (h.has('level')) out.level = Math.max(1, parseInt(h.get('level'), 10) || 1);
    if (h.has('layer')) out.layer = h.get('layer');
    if (h.has('show')) out.overlays = h.get('show').split(',').filter((o) => o in OVERLAYS);
    if (['auto', 'on', 'off'].includes(h.get('glyphs'))) out.glyphs = h.get('glyphs');
    if (h.get('steps') === '1') out.steps = true;
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

  let fragmentTimer = 0;
  function writeFragment() {
    clearTimeout(fragmentTimer);
    fragmentTimer = setTimeout(() => {
      const h = new URLSearchParams();
      if (state.seed !== null) h.set('seed', state.seed);
      for (const [k, v] of changedParams()) h.append('set', `${k}=${v}`);
      if (state.level !== 1) h.set('level', String(state.level));
      if (state.layer !== 'terrain') h.set('layer', state.layer);
      if (state.overlays.size) h.set('show', [...state.overlays].join(','));
      if (state.glyphs !== 'auto') h.set('glyphs', state.glyphs);
      if (state.steps) h.set('steps', '1');
      if (state.pinned) h.set('cell', `${state.pinned.x},${state.pinned.y}`);
      if (state.view) {
        const v = state.view;
        h.set('view', `${+v.zoom.toFixed(4)},${Math.round(v.x)},${Math.round(v.y)}`);
      }
      history.replaceState(null, '', '#' + h.toString());
    }, 250);
  }

  function splitSet(text) {
    const i = text.indexOf('=');
    return i > 0 ? [text.slice(0, i), text.slice(i + 1)] : null;
  }

  // ---- status from the server ---------------------------------------------------------------

  let fragment = readFragment();

  function connect() {
    const events = new EventSource('/api/events');
    events.addEventListener('status', (e) => onStatus(JSON.parse(e.data)));
    events.onerror = () => {
      state.refetch = true;
      setStatusLine('offline', 'disconnected from warren serve — retrying…');
    };
  }

  function onStatus(s) {
    const first = state.session === null;
    state.session = s.session;
    if (first) start(s.session);
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
    $('recipe-path').textContent = s.session.script;
    state.statusProblems = s.problems;
    showErrors();
    const reason = s.reason === 'started' ? 'loaded' : `reloaded ${s.reason}`;
    setStatusLine(
      s.problems.length ? 'error' : 'ok',
      `${reason} in ${s.reload_ms.toFixed(0)} ms${s.problems.length ? ' — broken, keeping the last good map' : ''}`,
    );
    if (first || state.refetch || s.version !== state.version) {
      state.refetch = false;
      state.version = s.version;
      requestMap();
    }
  }

  /** The first status: the start-up seed and parameters, unless the URL says otherwise. */
  function start(session) {
    state.seed = fragment.seed ?? session.seed;
    for (const [k, v] of fragment.sets ?? session.sets) state.params[k] = v;
    state.level = fragment.level ?? 1;
    state.layer = fragment.layer ?? 'terrain';
    state.overlays = new Set(fragment.overlays ?? []);
    state.glyphs = fragment.glyphs ?? 'auto';
    state.steps = fragment.steps ?? false;
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

  function generationQuery() {
    const q = new URLSearchParams();
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

  /** A new good map: keep the view, the level, the layer and the step where they still exist. */
  function accept(data, query) {
    state.data = data;
    state.dataQuery = query;
    state.layers.clear();
    state.level = Math.min(state.level, data.levels.length);
    const frames = currentLevel().frames;
    if (state.frame !== null && (!state.steps || state.frame >= frames.length - 1)) state.frame = null;
    if (!state.view) fit();
    updateLayerChoices();
    updateScrubber();
    updateStats();
    updateExports();
    showErrors();
    draw();
    inspect();
    document.body.dataset.state = 'ready';
    document.body.dataset.drawnAt = String(Date.now());
    document.body.dataset.version = String(data.version);
    document.body.dataset.seed = data.seed;
    writeFragment();
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
    const scrubber = $('scrubber');
    scrubber.hidden = !state.steps;
    const slider = $('frame');
    slider.max = String(frames.length - 1);
    slider.value = String(frameIndex());
    const i = frameIndex();
    const dropped = currentLevel().steps_dropped;
    let text = frames.length > 1
      ? `step ${i + 1} of ${frames.length}: ${frames[i].label}`
      : 'the recipe took no map:snapshot';
    if (dropped) text += ` (${dropped} more not kept: too many cells)`;
    $('frame-label').textContent = text;
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
    $('download-tiled').href = '/api/export.tmx?' + q.toString();
    $('download-tileset').href = '/api/export.tiles.png?' + q.toString();
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
    const parts = ['warren', 'run', s.script, '--seed', state.seed];
    for (const [k, v] of changedParams()) parts.push('--set', `${k}=${v}`);
    if (s.levels !== 1) parts.push('--levels', String(s.levels));
    if (s.regions) parts.push('--regions', s.regions);
    if (state.layer !== 'terrain') parts.push('--layer', state.layer);
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

  /** The picture of the chosen layer: fetched once per map, level, step and layer. */
  function layerPicture(frame) {
    if (state.layer === 'terrain' || !frame.layers.includes(state.layer)) return terrainPicture(frame);
    const index = frameIndex();
    const key = `${state.level}/${index}/${state.layer}`;
    const known = state.layers.get(key);
    if (known && known !== 'loading') return known;
    if (!known) fetchLayer(key, index);
    return terrainPicture(frame);
  }

  async function fetchLayer(key, index) {
    state.layers.set(key, 'loading');
    const q = new URLSearchParams(state.dataQuery);
    q.set('layer', state.layer);
    q.set('level', String(state.level));
    if (index < currentLevel().frames.length - 1) q.set('frame', String(index));
    const data = state.data;
    try {
      const answer = await fetch('/api/layer?' + q.toString(), { cache: 'no-store' });
      const body = await answer.json();
      if (data !== state.data) return;
      if (!answer.ok) {
        state.requestProblems = body.error;
        showErrors();
        return;
      }
      state.layers.set(key, picture(body.width, body.height, body.palette, unpack(body.cells)));
      draw();
      inspect();
    } catch {
      if (data === state.data) state.layers.delete(key);
    }
  }

  function draw() {
    const canvas = $('map');
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
    if (!state.data || !state.view) return;
    const frame = currentFrame();
    const pic = layerPicture(frame);
    const z = state.view.zoom * dpr;
    const ox = Math.round(state.view.x * dpr);
    const oy = Math.round(state.view.y * dpr);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(pic.canvas, ox, oy, pic.width * z, pic.height * z);
    const glyphs = state.glyphs === 'on' || (state.glyphs === 'auto' && state.view.zoom >= GLYPH_ZOOM);
    if (glyphs) drawGlyphs(ctx, pic, z, ox, oy, w, h);
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
    $('zoom-level').textContent = `${+state.view.zoom.toFixed(2)} px/cell`;
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
    for (const d of f.doors) add(d, ['door', 'door']);
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
    const item = (kind, text, extra) => {
      const li = document.createElement('li');
      li.dataset.kind = kind;
      if (extra !== undefined) li.dataset.what = extra;
      li.textContent = text;
      list.append(li);
    };
    f.rooms.forEach((r, n) => {
      if (cell.x >= r.x && cell.x < r.x + r.w && cell.y >= r.y && cell.y < r.y + r.h) {
        item('room', `room ${n + 1} · ${r.kind} · ${r.w}×${r.h} at ${r.x}, ${r.y}`);
      }
    });
    for (const [kind, text, extra] of notesOf(f).get(i) ?? []) item(kind, text, extra);
    dl.hidden = false;
    $('inspector-empty').hidden = true;
  }

  // ---- wiring -------------------------------------------------------------------------------

  function wire() {
    const canvas = $('map');
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
      draw();
      inspect();
      writeFragment();
    });
    $('layer').addEventListener('change', () => {
      state.layer = $('layer').value;
      if (state.data) updateExports();
      draw();
      inspect();
      writeFragment();
    });
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
      state.steps = $('steps').checked;
      state.frame = null;
      requestMap();
    });
    $('frame').addEventListener('input', () => {
      const i = parseInt($('frame').value, 10);
      state.frame = i >= currentLevel().frames.length - 1 ? null : i;
      updateScrubber();
      draw();
      inspect();
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

  // A small read-only view of the page for scripts and tests: where the map is drawn.
  window.warren = Object.freeze({
    view: () => (state.view ? { ...state.view } : null),
    seed: () => state.seed,
    params: () => ({ ...state.params }),
  });

  wire();
  connect();
})();
