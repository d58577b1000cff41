// warren serve: the live statistics panel. It asks /api/sweep for `warren batch` over N seeds
// of the recipe as it is loaded now, reads the server-sent progress events as the maps finish,
// and draws one histogram per metric: the current sweep filled, the previous finished one
// outlined on the same axis, so a save that moves a distribution shows at once.
'use strict';

/** Bins of a histogram when the values are not a few whole numbers (as `warren batch`'s plot). */
const BINS = 40;

const $ = (id) => document.getElementById(id);

/** A number as `warren batch`'s table prints it. */
export function number(v) {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  const a = Math.abs(v);
  if (a < 1) return v.toFixed(4);
  if (a < 100) return v.toFixed(2);
  return v.toFixed(1);
}

/**
 * The bins over [lo, hi] that hold both distributions, as `warren batch` bins one column: one
 * bin per whole number when every value is whole and they span fewer than BINS numbers, else
 * BINS equal bins (`ColumnStats::histogram_to`).
 */
function binsFor(columns) {
  let lo = Infinity;
  let hi = -Infinity;
  let whole = true;
  for (const c of columns) {
    lo = Math.min(lo, c.min);
    hi = Math.max(hi, c.max);
    whole = whole && c.values.every(([v]) => Number.isInteger(v));
  }
  if (whole && hi - lo < BINS) return { lo, hi: hi + 1, n: hi - lo + 1 };
  if (hi <= lo) return { lo, hi: lo, n: 1 };
  return { lo, hi, n: BINS };
}

/** The counts of `column`'s values in `bins`. */
function count(column, bins) {
  const counts = new Array(bins.n).fill(0);
  for (const [v, n] of column.values) {
    const i = bins.hi > bins.lo ? Math.floor(((v - bins.lo) / (bins.hi - bins.lo)) * bins.n) : 0;
    counts[Math.max(0, Math.min(bins.n - 1, i))] += n;
  }
  return counts;
}

/** Reads server-sent events from a fetch answer, calling `on(event, data)` for each. */
async function readEvents(answer, on) {
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) on(event, data.join('\n'));
    }
  }
}

/**
 * The panel. `link(seed)` gives the page address of a seed's map (for the failures); `command()`
 * the `warren batch` words that make the same statistics.
 */
export class Sweep {
  constructor({ link, command }) {
    this.link = link;
    this.command = command;
    this.query = null; // the query of the sweep shown
    this.version = null; // the recipe version it ran on
    this.control = null; // aborts the running request
    this.now = null; // the latest progress
    this.before = null; // the previous finished sweep of the same recipe, seeds and count
    this.firstShownAt = null; // when the current sweep's first histogram was drawn (ms)
    this.inputsPending = false; // a change of the seeds waits for the end of its task
    $('sweep-run').addEventListener('click', () => this.restart());
    $('sweep-live').addEventListener('change', () => {
      if ($('sweep-live').checked) this.restart();
      else this.stop('paused: tick "live" to run again');
    });
    for (const id of ['sweep-count', 'sweep-start']) {
      $(id).addEventListener('change', () => this.onInputs());
    }
  }

  /** The seeds asked for, or null when the fields are not valid. */
  seeds() {
    const count = Number($('sweep-count').value);
    const start = $('sweep-start').value.trim();
    const okCount = Number.isInteger(count) && count >= 1 && count <= 1000000;
    const okStart = /^\d{1,20}$/.test(start) && BigInt(start) < 1n << 64n;
    $('sweep-count').classList.toggle('invalid', !okCount);
    $('sweep-start').classList.toggle('invalid', !okStart);
    return okCount && okStart ? { count, start: BigInt(start).toString() } : null;
  }

  /**
   * The seeds changed: one new sweep for all the changes made in one go (both fields set by a
   * script, say). Asked once per change, each request would abort the one before, and an
   * aborted request the network had already sent could reach the server after its successor
   * and replace the sweep the page then waits for.
   */
  onInputs() {
    if (this.inputsPending) return;
    this.inputsPending = true;
    setTimeout(() => {
      this.inputsPending = false;
      if (this.base) this.update(this.base, this.version, true);
    }, 0);
  }

  /**
   * Shows the sweep of `base` (recipe and parameters, a URLSearchParams) on recipe version
   * `version`: a new one when either changed (or `force`), else the one shown goes on.
   */
  update(base, version, force = false) {
    this.base = base;
    const seeds = this.seeds();
    if (!seeds) return;
    const q = new URLSearchParams(base);
    q.set('count', String(seeds.count));
    q.set('start', seeds.start);
    const query = q.toString();
    $('sweep-command').value = this.command(seeds);
    if (!force && query === this.query && version === this.version) return;
    if (!$('sweep-live').checked && !force) return;
    this.run(query, version);
  }

  restart() {
    if (this.base) this.update(this.base, this.version, true);
  }

  stop(why) {
    if (this.control) this.control.abort();
    this.control = null;
    this.setState(why);
  }

  async run(query, version) {
    if (this.control) this.control.abort();
    const control = new AbortController();
    this.control = control;
    // The last finished sweep of the same recipe and seeds is what the new one is compared to.
    const finished = this.now && this.now.state === 'done';
    if (finished && this.sameSeeds(this.now, query)) this.before = this.now;
    else if (!this.before || !this.sameSeeds(this.before, query)) this.before = null;
    this.query = query;
    this.version = version;
    this.now = null;
    this.firstShownAt = null;
    document.body.dataset.sweep = 'running';
    this.setState('starting…');
    try {
      const answer = await fetch('/api/sweep?' + query, { signal: control.signal, cache: 'no-store' });
      if (!answer.ok) {
        const body = await answer.json().catch(() => null);
        const problems = body?.error?.problems?.map((p) => p.message).join('; ') ?? `HTTP ${answer.status}`;
        this.finish(control, `not run: ${problems}`, 'error');
        return;
      }
      await readEvents(answer, (event, data) => {
        if (event === 'progress' && this.control === control) this.show(JSON.parse(data));
      });
      if (this.control === control) this.control = null;
    } catch (e) {
      if (e.name !== 'AbortError') this.finish(control, `not run: ${e.message}`, 'error');
    }
  }

  finish(control, text, state) {
    if (this.control !== control) return;
    this.control = null;
    document.body.dataset.sweep = state;
    this.setState(text);
  }

  /**
   * Whether a sweep ran the recipe and seeds of `query` (its parameters may differ): then the
   * sweep of `query` is drawn over it.
   */
  sameSeeds(progress, query) {
    const key = (q) => {
      const p = new URLSearchParams(q);
      return [p.get('recipe'), p.get('count'), p.get('start')].join('\n');
    };
    return key(progress.query) === key(query);
  }

  setState(text) {
    $('sweep-state').textContent = text;
  }

  /** Draws a progress event. */
  show(p) {
    p.query = this.query;
    this.now = p;
    const secs = (p.elapsed_ms / 1e3).toFixed(2);
    const failed = p.failed ? `, ${p.failed} failed` : '';
    const states = {
      running: `${p.done} of ${p.count} maps${failed} · ${secs} s on ${p.jobs} core(s)…`,
      done: `${p.done} maps${failed} in ${secs} s on ${p.jobs} core(s)`,
      cancelled: `stopped after ${p.done} of ${p.count} maps: ${p.reason}`,
      error: `failed: ${p.reason}`,
    };
    this.setState(states[p.state] ?? p.state);
    this.drawTable(p);
    this.drawFailures(p);
    const body = document.body.dataset;
    body.sweep = p.state;
    body.sweepDone = String(p.done);
    body.sweepVersion = String(p.version);
    body.sweepId = String(p.id);
    if (p.metrics.length && this.firstShownAt === null) {
      this.firstShownAt = Date.now();
      body.sweepFirstAt = String(this.firstShownAt);
    }
    if (p.state === 'done') body.sweepDoneAt = String(Date.now());
  }

  drawTable(p) {
    const tbody = $('sweep-table').tBodies[0];
    tbody.textContent = '';
    const before = new Map((this.before?.metrics ?? []).map((m) => [m.name, m]));
    $('sweep-legend').hidden = before.size === 0;
    if (this.before) {
      $('sweep-before-label').textContent = `before (${this.before.done} maps, version ${this.before.version})`;
    }
    for (const m of p.metrics) {
      const old = before.get(m.name);
      const tr = tbody.insertRow();
      tr.className = 'metric';
      tr.dataset.metric = m.name;
      for (const k of ['count', 'min', 'median', 'p95', 'max', 'mean']) tr.dataset[k] = String(m[k]);
      const name = tr.insertCell();
      name.className = 'metric-name';
      name.textContent = m.name;
      const q = (v) => (m.exact ? number(v) : `~${number(v)}`);
      // The row as `warren batch`'s table prints it: maps, min, median, p95, max, mean.
      tr.dataset.table = JSON.stringify([String(m.count), number(m.min), q(m.median), q(m.p95), number(m.max), number(m.mean)]);
      name.title = `maps ${m.count} · min ${number(m.min)} · median ${q(m.median)} · p95 ${q(m.p95)} · max ${number(m.max)} · mean ${number(m.mean)}`;
      const median = tr.insertCell();
      median.className = 'median';
      median.dataset.shown = number(m.median);
      if (old && old.median !== m.median) {
        median.textContent = `${number(old.median)} → ${number(m.median)}`;
        median.classList.add('moved');
      } else {
        median.textContent = number(m.median);
      }
      const columns = old ? [m, old] : [m];
      const bins = binsFor(columns);
      const now = count(m, bins);
      tr.dataset.bins = JSON.stringify({ lo: bins.lo, hi: bins.hi, counts: now });
      const chart = tbody.insertRow().insertCell();
      chart.className = 'chart';
      chart.colSpan = 2;
      chart.append(histogram(bins, now, old ? count(old, bins) : null, m));
      const range = tbody.insertRow().insertCell();
      range.className = 'metric-range';
      range.colSpan = 2;
      range.textContent = `${number(m.min)} … ${number(m.max)} · p95 ${q(m.p95)} · mean ${number(m.mean)}`;
    }
    if (p.times.length) {
      const t = p.times[0];
      const tr = tbody.insertRow();
      tr.className = 'time';
      const cell = tr.insertCell();
      cell.colSpan = 2;
      cell.textContent = `time per map (varies): median ${number(t.median)} µs, p95 ${number(t.p95)} µs`;
    }
  }

  drawFailures(p) {
    const box = $('sweep-failures');
    box.hidden = p.failed === 0;
    if (!p.failed) return;
    const listed = p.failures.length;
    $('sweep-failures-title').textContent = p.failed > listed
      ? `${p.failed} maps failed (the first ${listed} by seed)`
      : `${p.failed} map${p.failed === 1 ? '' : 's'} failed`;
    const list = $('sweep-failure-list');
    list.textContent = '';
    for (const f of p.failures) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = this.link(f.seed);
      a.textContent = `seed ${f.seed}`;
      a.dataset.seed = f.seed;
      li.append(a, `: ${f.message}`);
      list.append(li);
    }
  }
}

/** A small histogram: `now` filled, `before` outlined, on the same bins. */
function histogram(bins, now, before, m) {
  const canvas = document.createElement('canvas');
  const dpr = window.devicePixelRatio || 1;
  const [w, h] = [280, 36];
  canvas.width = w * dpr;
  canvas.height = h * dpr;
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  const ctx = canvas.getContext('2d');
  ctx.scale(dpr, dpr);
  const top = Math.max(1, ...now, ...(before ?? []));
  const bw = w / bins.n;
  ctx.fillStyle = '#e0b050';
  now.forEach((c, i) => {
    const bh = c ? Math.max(1, (c / top) * (h - 2)) : 0;
    ctx.fillRect(i * bw + 0.5, h - bh, Math.max(1, bw - 1), bh);
  });
  if (before) {
    ctx.strokeStyle = '#6cf';
    ctx.lineWidth = 1;
    ctx.beginPath();
    before.forEach((c, i) => {
      const y = h - (c / top) * (h - 2);
      ctx.moveTo(i * bw, y + 0.5);
      ctx.lineTo((i + 1) * bw, y + 0.5);
    });
    ctx.stroke();
  }
  canvas.title = `${number(bins.lo)} … ${number(m.max)}`;
  return canvas;
}
