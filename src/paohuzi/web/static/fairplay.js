// Fair-play warnings of a room waiting to start (docs/clubs.md): which seats' players joined
// from one network address, and which seats' players, having both chosen to share a rough
// location, are close by. Warnings only: nothing is blocked.
import { html, useState } from "./vendor/htm-preact-standalone.js";
import { lang, t } from "./i18n.js";

const seatList = (g) => g.map((s) => s + 1).join(lang() === "en" ? ", " : "、");

/** The warning for ``room.same_address`` (seat groups), or nothing. */
export function SameAddress({ room }) {
  const groups = room.same_address || [];
  if (!groups.length) return null;
  const text = groups.map((g) => t("same_address_warning", { seats: seatList(g) })).join(" ");
  return html`<p class="same-address" role="status">${text}</p>`;
}

/** The warning for ``room.close_by`` (seat groups; never a position), or nothing. */
export function CloseBy({ room }) {
  const groups = room.close_by || [];
  if (!groups.length) return null;
  const text = groups.map((g) => t("close_by_warning", { seats: seatList(g) })).join(" ");
  return html`<p class="close-by" role="status">${text}</p>`;
}

// The server keeps 0.005 degree (about 550 m); nothing finer is ever sent.
const coarse = (v) => Math.round(v * 200) / 200;

/** A seated player's opt-in: only a press asks the browser for the position, and only a
 * rough one is sent, for this seat of this room; a second press withdraws (deletes) it.
 * ``call(method, path, body)`` sends and shows the room; ``say`` tells the player. */
export function ShareLocation({ room, call, say }) {
  const [asking, setAsking] = useState(false);
  const path = `/rooms/${room.code}/location`;
  if (room.location_shared) {
    return html`<div class="location-opt"><span class="muted">${t("location_shared")}</span>
      <button class="btn ghost small" data-location="withdraw" onClick=${() => call("DELETE", path)}>${t("location_withdraw")}</button></div>`;
  }
  const share = () => {
    if (!navigator.geolocation) { say(t("location_unavailable")); return; }
    setAsking(true);
    navigator.geolocation.getCurrentPosition(
      async (pos) => {
        await call("PUT", path, { lat: coarse(pos.coords.latitude), lon: coarse(pos.coords.longitude) });
        setAsking(false);
      },
      () => { setAsking(false); say(t("location_unavailable")); },
      { enableHighAccuracy: false, maximumAge: 600000, timeout: 20000 },
    );
  };
  return html`<div class="location-opt">
    <button class="btn ghost small" data-location="share" disabled=${asking} onClick=${share}>${t("location_share")}</button>
    <span class="muted small">${t("location_why")}</span></div>`;
}
