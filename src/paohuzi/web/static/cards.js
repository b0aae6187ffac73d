// Cards as SVG, drawn from the real glyphs: 小字 一…十, 大字 壹…拾, 二七十/贰柒拾 in red.
import { html } from "./vendor/htm-preact-standalone.js";
import { t, lang } from "./i18n.js";

export const SMALL = "一二三四五六七八九十";
export const BIG = "壹贰叁肆伍陆柒捌玖拾";
const RED = new Set("二七十贰柒拾");
export const HIDDEN = "▢";

/** Face index 0-19 of a glyph (小字 0-9, 大字 10-19), -1 for a face-down card. */
export function faceIndex(g) {
  const s = SMALL.indexOf(g);
  if (s >= 0) return s;
  const b = BIG.indexOf(g);
  return b >= 0 ? 10 + b : -1;
}
export const isBig = (g) => BIG.includes(g);
export const isRed = (g) => RED.has(g);
export const number = (g) => (faceIndex(g) % 10) + 1;

/** The glyphs of a string of cards ("五五伍" -> ["五","五","伍"]). */
export const glyphs = (s) => (s ? Array.from(s) : []);

/** A card's words for screen readers and tooltips. */
export function cardName(g) {
  if (g === HIDDEN || faceIndex(g) < 0) return t("card_back");
  if (lang() === "en") return `${isBig(g) ? "big" : "small"} ${number(g)}${isRed(g) ? " (red)" : ""}`;
  return `${g}（${isBig(g) ? "大字" : "小字"}${isRed(g) ? "，红" : ""}）`;
}

/** One card: ``size`` is "hand" (44×62), "mid" (30×42) or "mini" (22×30). */
export function Card({ g, size = "mid", cls = "", label }) {
  const back = g === HIDDEN || faceIndex(g) < 0;
  const kind = back ? "back" : isBig(g) ? "big" : "small";
  const aria = label || cardName(g);
  return html`<svg class=${`card ${size} ${kind} ${cls}`} viewBox="0 0 44 62" role="img"
      aria-label=${aria} data-face=${back ? "" : g}>
    <rect x="1" y="1" width="42" height="60" rx="5" class="card-body" />
    ${back
      ? html`<rect x="6" y="6" width="32" height="50" rx="3" class="card-pattern" />
             <path d="M22 12 L33 31 L22 50 L11 31 Z" class="card-diamond" />`
      : html`<text x="22" y="30" text-anchor="middle" class=${isRed(g) ? "glyph red" : "glyph"}>${g}</text>
             <text x="22" y="53" text-anchor="middle" class=${isRed(g) ? "glyph2 red" : "glyph2"}>${g}</text>`}
  </svg>`;
}

/** A group as a column of mini cards ("碰:五五五", "提:▢▢▢▢"); the kind as its caption. */
export function Group({ text, size = "mini", highlight = false }) {
  const [kind, faces] = text.includes(":") ? text.split(":") : ["", text];
  const gs = glyphs(faces);
  const label = `${kind} ${gs.map(cardName).join(" ")}`;
  return html`<div class=${`group ${highlight ? "fresh" : ""}`} role="group" aria-label=${label}>
    <div class="group-cards">${gs.map((g) => html`<${Card} g=${g} size=${size} />`)}</div>
    ${kind && html`<div class="group-kind">${kind}</div>`}
  </div>`;
}

/**
 * The hand laid out in columns as the apps do: cards of one number together (小字 and 大字),
 * a 坎 (three or four of one face) kept together in its own column, then neighbouring
 * columns merged until the hand fits ``maxCols`` columns of at most four cards.
 */
export function handColumns(hand, maxCols) {
  const counts = new Map();
  for (const g of glyphs(hand)) counts.set(g, (counts.get(g) || 0) + 1);
  const cols = [];
  for (let n = 0; n < 10; n++) {
    const kans = [];
    const rest = [];
    for (const g of [SMALL[n], BIG[n]]) {
      const c = counts.get(g) || 0;
      if (c >= 3) kans.push({ cards: Array(c).fill(g), kan: true });
      else for (let i = 0; i < c; i++) rest.push(g);
    }
    for (const k of kans) cols.push(k);
    if (rest.length) cols.push({ cards: rest, kan: false });
  }
  while (cols.length > maxCols) {
    let best = -1;
    let size = 99;
    for (let i = 0; i + 1 < cols.length; i++) {
      if (cols[i].kan || cols[i + 1].kan) continue;
      const s = cols[i].cards.length + cols[i + 1].cards.length;
      if (s < size) { size = s; best = i; }
    }
    if (best < 0 || size > 5) break;
    cols.splice(best, 2, { cards: [...cols[best].cards, ...cols[best + 1].cards], kan: false });
  }
  return cols;
}
