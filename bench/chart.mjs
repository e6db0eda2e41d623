#!/usr/bin/env node
// Draws the win-rate estimate and its 95% interval against the number of deals, one line per result
// file (one file or set of shards per preset), as an SVG for docs/results.md.
//
//   node bench/chart.mjs results/canfield.msgpack results/storehouse.msgpack ... > docs/results-chart.svg
//   node bench/chart.mjs --range 60-80 --ref "71.245=Solvitaire, canfield-sequences" a.msgpack b.msgpack > chart.svg
//   node bench/chart.mjs a-1-50000.msgpack+a-50001-100000.msgpack > chart.svg
//
// Files joined by "+" are one line: runs of one game, rules and limit per deal over deals that do not
// overlap (e.g. consecutive ranges run by different versions, which `patience merge` rightly refuses
// to make one file of when their headers differ).
//
// --range LO-HI draws only win rates from LO% to HI% (default 0-100); each --ref VALUE=LABEL draws a
// dashed line at VALUE% (a published figure) with its label.
//
// Deals are taken in deal-number order; at each checkpoint the estimate counts unknown deals as lost
// and the band spans the Wilson interval with unknowns counted as lost (low) and as won (high).
import { changedOptions, readResults, winRateInterval } from '../dist/index.js';

const files = [];
const refs = [];
let low = 0;
let high = 1;
const usage = 'usage: node bench/chart.mjs [--range LO-HI] [--ref VALUE=LABEL ...] result.msgpack [more ...] > chart.svg';
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--range' || arg === '--ref') {
    const value = process.argv[++i] ?? '';
    if (arg === '--range') {
      const m = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(value);
      if (!m || Number(m[1]) >= Number(m[2]) || Number(m[2]) > 100) {
        console.error(`chart: --range wants LO-HI in percent, LO below HI, e.g. 60-80 (got "${value}")`);
        process.exit(2);
      }
      low = Number(m[1]) / 100;
      high = Number(m[2]) / 100;
    } else {
      const m = /^(\d+(?:\.\d+)?)=(.+)$/.exec(value);
      if (!m) {
        console.error(`chart: --ref wants VALUE=LABEL, VALUE in percent (got "${value}")`);
        process.exit(2);
      }
      refs.push({ rate: Number(m[1]) / 100, label: m[2] });
    }
  } else files.push(arg);
}
if (files.length === 0) {
  console.error(usage);
  process.exit(2);
}
for (const r of refs) {
  if (r.rate < low || r.rate > high) {
    console.error(`chart: --ref ${r.label} at ${r.rate * 100}% lies outside the --range drawn`);
    process.exit(2);
  }
}

/** The game, the rules options the run changed from its preset (e.g. "storehouse, spaces auto-reserve-then-waste"), and its deals unless they start at 1. */
function labelOf(header, first, last) {
  const changed = Object.entries(changedOptions(header.game, header.rules ?? {}));
  // A run that does not start at deal 1 says which deals it holds.
  const range = first > 1 ? [`deals ${first.toLocaleString('en')}-${last.toLocaleString('en')}`] : [];
  return [header.game, ...changed.map(([k, v]) => `${k} ${v}`), ...range].join(', ');
}

function fail(message) {
  console.error(`chart: ${message}`);
  process.exit(2);
}

/** One line's results: the files joined by "+", their deals in order, each deal once. */
function readLine(arg) {
  const sets = arg.split('+').map((path) => {
    try {
      return { path, set: readResults(path, { details: false }) };
    } catch (e) {
      return fail(e instanceof Error ? e.message : String(e));
    }
  });
  const { header } = sets[0].set;
  const rows = [];
  for (const { path, set } of sets) {
    const h = set.header;
    if (labelOf(h, 1, 1) !== labelOf(header, 1, 1) || limitOf(h) !== limitOf(header)) {
      fail(`${path} is not a run of the same game, rules and limit as ${sets[0].path}: cannot be one line`);
    }
    const t = set.table;
    for (let k = 0; k < t.size; k++) rows.push({ deal: t.deal[k], code: t.code[k] });
  }
  rows.sort((a, b) => a.deal - b.deal);
  for (let k = 1; k < rows.length; k++) if (rows[k].deal === rows[k - 1].deal) fail(`deal ${rows[k].deal} is in more than one of ${arg}`);
  return { header, rows };
}

/** The run's limit per deal, e.g. "10 s a deal". */
function limitOf(header) {
  const l = header.limits ?? {};
  if (l.timeLimitMs != null) return `${l.timeLimitMs / 1000} s a deal`;
  if (l.nodeLimit != null) return `${l.nodeLimit.toLocaleString('en')} nodes a deal`;
  return 'no limit';
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#393b79', '#e7969c'];
const H = 520;

const series = files.map((arg, i) => {
  const { header, rows } = readLine(arg);
  const points = [];
  let won = 0;
  let unknown = 0;
  const n = rows.length;
  const checkpoints = new Set();
  for (let k = 0; k <= 60; k++) checkpoints.add(Math.max(1, Math.round(n ** (k / 60))));
  rows.forEach(({ code }, j) => {
    if (code === 1) won++;
    else if (code !== 0) unknown++;
    const done = j + 1;
    if (checkpoints.has(done) && done >= 10) {
      const [lo, hi] = winRateInterval(won, unknown, done);
      points.push({ deals: done, rate: won / done, lo, hi });
    }
  });
  const label = n > 0 ? labelOf(header, rows[0].deal, rows[n - 1].deal) : header.game;
  return { label, limit: limitOf(header), colour: COLOURS[i % COLOURS.length], points, deals: n };
});
// Two runs of one preset (e.g. a long run at a short limit and a shorter one at a longer limit) are
// told apart by their limit per deal.
const shared = series.filter((s) => series.some((t) => t !== s && t.label === s.label));
for (const s of shared) s.label += `, ${s.limit}`;

// The legend sits right of the plot, wide enough for its longest line (about 7 px a character).
const legend = [...series.map((s) => `${s.label}: 00.00% (${s.deals.toLocaleString('en')})`), ...refs.map((r) => `- - ${r.label}: 00.000%`)];
const M = { left: 70, right: Math.max(330, 20 + 7 * Math.max(...legend.map((l) => l.length))), top: 30, bottom: 50 };
const W = M.left + 640 + M.right;
const maxDeals = Math.max(...series.map((s) => s.deals));
const x = (deals) => M.left + (Math.log10(deals) - 1) / (Math.log10(maxDeals) - 1 || 1) * (W - M.left - M.right);
const y = (rate) => M.top + (high - Math.min(high, Math.max(low, rate))) / (high - low) * (H - M.top - M.bottom);
const out = [];
out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`);
out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
// Ten grid steps over the range.
const step = (high - low) / 10;
for (let r = 0; r <= 10; r++) {
  const rate = low + r * step;
  const yy = y(rate);
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${yy.toFixed(1)}" y2="${yy.toFixed(1)}" stroke="#ddd"/>`);
  out.push(`<text x="${M.left - 8}" y="${(yy + 4).toFixed(1)}" text-anchor="end">${+(rate * 100).toFixed(2)}%</text>`);
}
for (let e = 1; 10 ** e <= maxDeals; e++) {
  const xx = x(10 ** e);
  out.push(`<line x1="${xx}" x2="${xx}" y1="${M.top}" y2="${H - M.bottom}" stroke="#ddd"/>`);
  out.push(`<text x="${xx}" y="${H - M.bottom + 18}" text-anchor="middle">${(10 ** e).toLocaleString('en')}</text>`);
}
out.push(`<text x="${(W - M.right + M.left) / 2}" y="${H - 10}" text-anchor="middle">deals solved (log scale)</text>`);
out.push(`<text x="16" y="${H / 2}" transform="rotate(-90 16 ${H / 2})" text-anchor="middle">win rate, 95% interval</text>`);
series.forEach((s, i) => {
  if (s.points.length === 0) return;
  const upper = s.points.map((p) => `${x(p.deals).toFixed(1)},${y(p.hi).toFixed(1)}`);
  const lower = s.points.map((p) => `${x(p.deals).toFixed(1)},${y(p.lo).toFixed(1)}`).reverse();
  out.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${s.colour}" fill-opacity="0.15" stroke="none"/>`);
  out.push(`<polyline points="${s.points.map((p) => `${x(p.deals).toFixed(1)},${y(p.rate).toFixed(1)}`).join(' ')}" fill="none" stroke="${s.colour}" stroke-width="2"/>`);
  const last = s.points[s.points.length - 1];
  out.push(`<text x="${W - M.right + 10}" y="${M.top + 16 + i * 18}" fill="${s.colour}">${s.label}: ${(last.rate * 100).toFixed(2)}% (${s.deals.toLocaleString('en')})</text>`);
});
refs.forEach((r, i) => {
  const yy = y(r.rate).toFixed(1);
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${yy}" y2="${yy}" stroke="black" stroke-dasharray="6 4"/>`);
  out.push(`<text x="${W - M.right + 10}" y="${M.top + 16 + (series.length + i) * 18}">- - ${r.label}: ${(r.rate * 100).toFixed(3)}%</text>`);
});
out.push('</svg>');
process.stdout.write(out.join('\n') + '\n');
