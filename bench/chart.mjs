#!/usr/bin/env node
// Draws the win-rate estimate and its 95% interval against the number of deals, one line per result
// file (one file or set of shards per preset), as an SVG for docs/results.md.
//
//   node bench/chart.mjs results/canfield.msgpack results/storehouse.msgpack ... > docs/results-chart.svg
//
// Deals are taken in deal-number order; at each checkpoint the estimate counts unknown deals as lost
// and the band spans the Wilson interval with unknowns counted as lost (low) and as won (high).
import { readResults, resolveRules, rulesToJson, winRateInterval } from '../dist/index.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench/chart.mjs result.msgpack [more ...] > chart.svg');
  process.exit(2);
}

/** The game, and the rules options the run changed from its preset (e.g. "storehouse, spaces auto-reserve-then-waste"). */
function labelOf(header) {
  const preset = rulesToJson(resolveRules(header.game));
  const changed = Object.entries(header.rules ?? {}).filter(([k, v]) => k !== 'game' && JSON.stringify(preset[k]) !== JSON.stringify(v));
  return [header.game, ...changed.map(([k, v]) => `${k} ${v}`)].join(', ');
}

/** The run's limit per deal, e.g. "10 s a deal". */
function limitOf(header) {
  const l = header.limits ?? {};
  if (l.timeLimitMs != null) return `${l.timeLimitMs / 1000} s a deal`;
  if (l.nodeLimit != null) return `${l.nodeLimit.toLocaleString('en')} nodes a deal`;
  return 'no limit';
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#393b79', '#e7969c'];
const W = 1040;
const H = 520;
const M = { left: 70, right: 330, top: 30, bottom: 50 };

const series = files.map((path, i) => {
  const set = readResults(path, { details: false });
  const t = set.table;
  const order = Array.from({ length: t.size }, (_, k) => k).sort((a, b) => t.deal[a] - t.deal[b]);
  const points = [];
  let won = 0;
  let unknown = 0;
  const n = order.length;
  const checkpoints = new Set();
  for (let k = 0; k <= 60; k++) checkpoints.add(Math.max(1, Math.round(n ** (k / 60))));
  order.forEach((row, j) => {
    const code = t.code[row];
    if (code === 1) won++;
    else if (code !== 0) unknown++;
    const done = j + 1;
    if (checkpoints.has(done) && done >= 10) {
      const [lo, hi] = winRateInterval(won, unknown, done);
      points.push({ deals: done, rate: won / done, lo, hi });
    }
  });
  return { label: labelOf(set.header), limit: limitOf(set.header), colour: COLOURS[i % COLOURS.length], points, deals: n };
});
// Two runs of one preset (e.g. a long run at a short limit and a shorter one at a longer limit) are
// told apart by their limit per deal.
const shared = series.filter((s) => series.some((t) => t !== s && t.label === s.label));
for (const s of shared) s.label += `, ${s.limit}`;

const maxDeals = Math.max(...series.map((s) => s.deals));
const x = (deals) => M.left + (Math.log10(deals) - 1) / (Math.log10(maxDeals) - 1 || 1) * (W - M.left - M.right);
const y = (rate) => M.top + (1 - rate) * (H - M.top - M.bottom);
const out = [];
out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`);
out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
for (let r = 0; r <= 10; r++) {
  const yy = y(r / 10);
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${yy}" y2="${yy}" stroke="#ddd"/>`);
  out.push(`<text x="${M.left - 8}" y="${yy + 4}" text-anchor="end">${r * 10}%</text>`);
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
out.push('</svg>');
process.stdout.write(out.join('\n') + '\n');
