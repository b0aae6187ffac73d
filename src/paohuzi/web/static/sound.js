// The table's sounds: each claim called out in Mandarin, a click for a discard, a swish for a
// card turned up (files made by tools/make-sounds). Loaded after the first screen; each file
// is fetched on its first use. Muted and volume are kept per browser (localStorage).
const FILES = { chi: "chi", peng: "peng", wei: "wei", pao: "pao", ti: "ti", hu: "hu", discard: "click", draw: "draw" };
const cache = {};
// Ogg Vorbis where the browser plays it (a third of the size), else WAV: Safari, on the
// iPhone as on the Mac, plays no Ogg Vorbis, and every browser plays WAV.
const EXT = (() => {
  try { return new Audio().canPlayType('audio/ogg; codecs="vorbis"') ? "ogg" : "wav"; } catch { return "wav"; }
})();

export const settings = {
  get muted() { return localStorage.getItem("phz.sound.muted") === "1"; },
  set muted(on) { localStorage.setItem("phz.sound.muted", on ? "1" : "0"); },
  get volume() {
    const v = Number(localStorage.getItem("phz.sound.volume") ?? "0.8");
    return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0.8;
  },
  set volume(v) { localStorage.setItem("phz.sound.volume", String(Math.min(1, Math.max(0, Number(v) || 0)))); },
};

/** The sound an event kind makes (null: none). */
export const soundOf = (kind) => FILES[kind] || null;

/** Play the sound of event ``kind`` unless muted; the file's name, or null. */
export function play(kind) {
  const name = soundOf(kind);
  if (!name || settings.muted) return null;
  let a = cache[name];
  if (!a) a = cache[name] = new Audio(`/static/sounds/${name}.${EXT}`);
  a.volume = settings.volume;
  try {
    a.currentTime = 0;
    const p = a.play();
    if (p && p.catch) p.catch(() => {}); // no sound before the first tap: browsers allow none
  } catch { /* no audio device */ }
  window.__phzSounds = (window.__phzSounds || 0) + 1;
  return name;
}
