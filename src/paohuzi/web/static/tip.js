// 提示 in practice games: the options of the decision open now, valued by the server's
// analysis (POST /rooms/{code}/hint: expected points for the round ± their standard error,
// best first). Only offered where every other seat is a bot: the server refuses it
// (403 not_practice) as soon as another person is seated, and so does this page.
import { html } from "./vendor/htm-preact-standalone.js";
import { Card, Group } from "./cards.js";
import { t } from "./i18n.js";
import { parseAction } from "./table.js";

/** Whether ``seat`` plays against bots only (``seats``: the snapshot's seat statuses). */
export function isPractice(seats, seat) {
  if (!seats || seat === null || seat === undefined) return false;
  const others = seats.filter((s) => s.seat !== seat);
  return others.length === 2 && others.every((s) => !!s.bot);
}

/** Whether 提示 is worth a button now: practice, and a choice of at least two options. */
export function tipOffered(game) {
  const snap = game && game.snapshot;
  if (!snap || game.spectate || game.over || !snap.view || snap.view.phase === "over") return false;
  return isPractice(game.seats, snap.seat) && (snap.legal || []).length >= 2;
}

const signed = (x) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(2)}`;

/** One option as the table draws it: 打 and a card, 碰 and its three, 吃 and its groups
 * (the 提示 panel's, and the 复盘's options of a decision). */
export function OptionCards({ text }) {
  const a = parseAction(text);
  if (a.kind === "胡") return html`<b class="tip-word hu">${t("act_hu")}</b>`;
  if (a.kind === "过") return html`<b class="tip-word">${t("act_pass")}</b>`;
  if (a.kind === "打") return html`<span class="tip-word">${t("discard")}</span><${Card} g=${a.face} size="mini" />`;
  if (a.kind === "碰") return html`<span class="tip-word">${t("act_peng")}</span><${Group} text=${`碰:${a.face.repeat(3)}`} />`;
  return html`<span class="tip-word">${t("act_chi")}</span>${a.groups.map((g) => html`<${Group} text=${g} />`)}`;
}

/** The 提示 button (in the action area); ``open``: whether its panel is shown. */
export function TipButton({ open, busy, onClick }) {
  return html`<button class=${`btn small tip-button ${open ? "on" : ""}`} data-tip-button
      aria-pressed=${open ? "true" : "false"} aria-label=${t("tip_label")} aria-keyshortcuts="h"
      disabled=${busy} onClick=${onClick}>${t("tip")}</button>`;
}

/**
 * The valued options, best first: their cards, value ± se, and for all but the best what
 * they lose against it. ``tip``: {loading} | {error} | the server's answer.
 */
export function TipPanel({ tip, onClose }) {
  let body;
  if (tip.loading) body = html`<p class="muted">${t("tip_loading")}</p>`;
  else if (tip.error) body = html`<p class="error">${tip.error}</p>`;
  else {
    const opts = [...tip.options].sort((a, b) => b.value - a.value);
    // Each other option shows how far it is behind the best, the gap between the values
    // shown (measured on the same worlds, so it is a paired difference), with the paired
    // error; "最佳" only where the next option is behind by more than twice that error:
    // +1.75 ± 1.22 over +1.38 ± 0.83 is no verdict. (It showed the cross-fitted loss, whose
    // best is picked on other worlds: "-1.69 less" beside values in order, or "0.00 less"
    // for an option 3.4 behind, read as nonsense.)
    const gap = (o) => Math.max(0, opts[0].value - o.value);
    const clear = opts.length < 2 || gap(opts[1]) > 2 * opts[1].loss_se;
    const left = (tip.legal || opts.length) - opts.length;
    body = html`<ol class="tip-options">${opts.map((o, i) => html`<li key=${o.id} data-tip-option=${o.id}
        data-text=${o.text} class=${i === 0 ? "best" : ""}>
      <span class="tip-cards">${html`<${OptionCards} text=${o.text} />`}</span>
      <span class="tip-value" data-value=${o.value}
          aria-label=${t("tip_value_label", { v: signed(o.value), se: o.se.toFixed(2) })}>${signed(o.value)} ± ${o.se.toFixed(2)}</span>
      ${i === 0 ? html`<span class=${`badge tip-best${clear ? "" : " close"}`}>${t(clear ? "tip_best" : "tip_close_call")}</span>`
        : html`<span class="tip-loss" data-loss=${gap(o)}>${t("tip_loss", { loss: gap(o).toFixed(2), se: o.loss_se.toFixed(2) })}</span>`}
    </li>`)}</ol>
    ${left > 0 && html`<p class="muted" data-tip-left>${t("tip_left", { n: left })}</p>`}
    <p class="muted tip-note">${t("tip_note", { n: tip.worlds })}</p>`;
  }
  return html`<section class="tip-panel" role="region" aria-label=${t("tip_title")} aria-live="polite" data-tip>
    <header class="tip-head"><b>${t("tip_title")}</b>
      <button class="btn small ghost" aria-label=${t("tip_close")} onClick=${onClose}>×</button></header>
    ${body}
  </section>`;
}
