// The same-address warning of a room waiting to start (docs/clubs.md): which seats' players
// joined from one network address. A warning only: nothing is blocked.
import { html } from "./vendor/htm-preact-standalone.js";
import { lang } from "./i18n.js";

/** The warning for ``room.same_address`` (seat groups), or nothing. */
export function SameAddress({ room }) {
  const groups = room.same_address || [];
  if (!groups.length) return null;
  const en = lang() === "en";
  const seats = (g) => g.map((s) => s + 1).join(en ? ", " : "、");
  const text = groups.map((g) => (en ? `Seats ${seats(g)} joined from the same network address.`
    : `座位 ${seats(g)} 的玩家来自同一网络地址。`)).join(" ");
  return html`<p class="same-address" role="status">${text}</p>`;
}
