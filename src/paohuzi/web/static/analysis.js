// 复盘 in the replay viewer: the 分析 button asks the server for the analysis of one seat
// (POST /matches/{id}/analysis?seat=S, then GET until done), draws the expected points of
// each decision of the round shown, marks the mistakes, and lists a marked decision's
// options with their values (a mark's click also moves the replay to that decision).
import { html, useEffect, useState } from "./vendor/htm-preact-standalone.js";
import { api } from "./api.js";
import { lang, errorWords } from "./i18n.js";
import { OptionCards } from "./tip.js";

const WORDS = {
  analyse: ["分析", "Analyse"],
  pick_seat: ["先选择一个座位视角", "Choose a seat to view as first"],
  running: ["分析中…", "Analysing…"],
  failed: ["分析失败", "The analysis failed"],
  summary: ["一致率 {a}，每个决定平均损失 {l} 分", "agreement {a}, {l} points lost per decision"],
  round_summary: ["第 {r} 局：", "Round {r}: "],
  colors: ["绿：最佳　红框：你的选择", "green: the best · red frame: the choice made"],
  decision_n: ["第 {n} 个决定（第 {step} 步）", "decision {n} (step {step})"],
  heading: ["复盘", "Post-game analysis"],
  over_n: ["共 {n} 次分析", "over {n} analyses"],
  graph: ["每个决定后的期望得分", "expected points after each decision"],
  chosen: ["选择", "chose"],
  loss: ["损失", "loss"],
  none: ["本局没有该座位的决定", "no decision of this seat in this round"],
};
const VERDICT = { good: ["好", "good"], inaccuracy: ["欠佳", "inaccuracy"], mistake: ["失误", "mistake"], blunder: ["大错", "blunder"] };
const w = (k, vars = {}) => (WORDS[k][lang() === "zh" ? 0 : 1]).replace(/\{(\w+)\}/g, (_, v) => vars[v]);
const verdictWord = (v) => VERDICT[v][lang() === "zh" ? 0 : 1];
/** A value in points, to one decimal (the server's 0.4013 ± 0.4331 read as noise). */
const num = (x, places = 1) => Number(x).toFixed(places);
/** Points lost per decision, to two places: a loss is measured against the best option
 * picked on other sampled worlds, so an average near zero can come out a hair below it,
 * which reads as nonsense ("-0.03 points lost"); it shows as 0.00. */
const lost = (x) => Math.max(0, Number(x)).toFixed(2);
/** An option's notation for people: "打:玖" → "打 玖", "吃:三四五 比:二二贰" → "吃 三四五 比 二二贰". */
const words = (text) => String(text).replace(/:/g, " ");

/** The expected points after each decision, mistakes marked (a click picks one). */
function Graph({ decisions, pick, picked }) {
  const W = 480, H = 120, pad = 10;
  const ys = decisions.map((d) => d.expected ?? 0);
  const lo = Math.min(0, ...ys), hi = Math.max(0, ...ys);
  const x = (i) => pad + (decisions.length < 2 ? 0 : (i * (W - 2 * pad)) / (decisions.length - 1));
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo || 1);
  const path = ys.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const label = (v, at) => html`<text x=${W - pad} y=${at} text-anchor="end" font-size="13" fill="#ccc">${v > 0 ? "+" : ""}${num(v)}</text>`;
  // the 0 line's label only where it clears the top and bottom labels (they overlapped)
  const zeroLabel = hi > 0 && lo < 0 && y(0) - pad > 16 && H - y(0) > 16;
  return html`<figure class="analysis-figure"><svg class="analysis-graph" viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${w("graph")}>
    <line x1=${pad} x2=${W - pad} y1=${y(0)} y2=${y(0)} stroke="#999" stroke-dasharray="3 3" />
    ${label(hi, pad + 4)} ${lo < 0 && label(lo, H - 2)} ${zeroLabel && html`<text x=${W - pad} y=${y(0) - 3} text-anchor="end" font-size="13" fill="#ccc">0</text>`}
    <path d=${path} fill="none" stroke="#2a6" stroke-width="2" />
    ${decisions.map((d, i) => d.verdict !== "good" && html`<circle data-mistake=${d.index} cx=${x(i)} cy=${y(ys[i])}
      r=${picked === d ? 8 : 6} fill=${d.verdict === "blunder" ? "#c22" : d.verdict === "mistake" ? "#e70" : "#db2"}
      stroke="rgba(0,0,0,0)" stroke-width="16" style="cursor:pointer" onClick=${() => pick(d)}><title>${verdictWord(d.verdict)} · ${w("loss")} ${num(d.loss)}</title></circle>`)}
  </svg><figcaption class="muted small" data-legend>${w("graph")}：
    ${[["inaccuracy", "#db2"], ["mistake", "#e70"], ["blunder", "#c22"]].map(([v, c]) => html`<span class="legend-item"><span style=${`color:${c}`}>●</span> ${verdictWord(v)}</span>`)}</figcaption></figure>`;
}

/** One decision's options side by side with their values (the chosen one marked). */
function Options({ d, n }) {
  return html`<div class="analysis-options" data-options=${d.index}>
    <div>${w("decision_n", { n, step: d.index })} · ${w("chosen")} ${words(d.chosen.text)}${lang() === "zh" ? "：" : ": "}${w("loss")} ${num(d.loss)}±${num(d.loss_se)} ${verdictWord(d.verdict)} ${d.tags.join(" ")}</div>
    <div class="analysis-option-list">${d.options.map((o) => html`<span class=${`analysis-option${o.id === d.chosen.id ? " chosen" : ""}${o.id === d.best.id ? " best" : ""}`}
        data-text=${o.text}>
      <span class="tip-cards"><${OptionCards} text=${o.text} /></span> ${o.value >= 0 ? "+" : ""}${num(o.value)}±${num(o.se)}</span>`)}</div>
    <div class="muted small">${w("colors")}</div>
  </div>`;
}

/** The 分析 button and, once the analysis is done, the round's graph and options; a
 * picked mark moves the replay (``onJump``) to the table as the seat saw it then. */
export function AnalysisPanel({ id, seat, round, onJump }) {
  const [state, setState] = useState(null); // null | "running" | "failed" | result
  const [picked, setPicked] = useState(null);
  useEffect(() => { setState(null); setPicked(null); }, [id, seat]);
  useEffect(() => {
    if (state !== "running") return undefined;
    const timer = setInterval(() => {
      api("GET", `/matches/${id}/analysis?seat=${seat}`).then((a) => {
        if (a.status === "done") setState(a.result);
        else if (a.status === "failed") setState("failed");
      }).catch((e) => setState({ error: errorWords(e.code, e.reason) }));
    }, 1500);
    return () => clearInterval(timer);
  }, [state, id, seat]);
  const start = () => api("POST", `/matches/${id}/analysis?seat=${seat}`)
    .then((a) => setState(a.status === "done" ? a.result : a.status))
    .catch((e) => setState({ error: errorWords(e.code, e.reason) }));
  if (seat === null) return html`<div class="analysis"><button class="btn small" disabled>${w("analyse")}</button> <span class="muted" data-pick-seat>${w("pick_seat")}</span></div>`;
  if (state === null) return html`<div class="analysis"><button class="btn small" data-analyse onClick=${start}>${w("analyse")}</button></div>`;
  if (state === "running") return html`<div class="analysis"><span>${w("running")}</span></div>`;
  if (state === "failed") return html`<div class="analysis"><span class="error">${w("failed")}</span></div>`;
  if (state.error) return html`<div class="analysis"><span class="error">${state.error}</span></div>`;
  const rr = state.rounds[round];
  const decisions = rr ? rr.decisions : [];
  const s = rr ? rr.summary : state.summary;
  return html`<div class="analysis" data-analysis>
    <div>${w("summary", { a: `${Math.round(s.agreement * 100)}%`, l: lost(s.loss_per_decision) })}</div>
    ${decisions.length ? html`<${Graph} decisions=${decisions} pick=${(d) => { setPicked(d); if (onJump) onJump(d.index); }} picked=${picked} />` : html`<div>${w("none")}</div>`}
    ${picked && html`<${Options} d=${picked} n=${decisions.indexOf(picked) + 1} />`}
  </div>`;
}

/** The account page's 复盘 figures: 一致率 and points lost per decision, recent analyses. */
export function AnalysisStats() {
  const [mine, setMine] = useState(null);
  useEffect(() => { api("GET", "/analyses/mine").then(setMine).catch(() => setMine(null)); }, []);
  if (!mine || !mine.overall.decisions) return null;
  const o = mine.overall;
  return html`<section class="panel" data-analysis-stats><h3>${w("heading")}</h3>
    <p>${w("summary", { a: `${Math.round(o.agreement * 100)}%`, l: lost(o.loss_per_decision) })}
      · ${w("over_n", { n: mine.analyses.length })}</p></section>`;
}
