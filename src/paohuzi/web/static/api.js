// HTTP calls to the server (same origin), the session token kept in localStorage.
export class ApiError extends Error {
  constructor(code, reason, status) {
    super(reason || code);
    this.code = code;
    this.reason = reason;
    this.status = status;
  }
}

export const session = {
  get token() { return localStorage.getItem("phz.token"); },
  get account() {
    try { return JSON.parse(localStorage.getItem("phz.account") || "null"); } catch { return null; }
  },
  save(token, account) {
    localStorage.setItem("phz.token", token);
    localStorage.setItem("phz.account", JSON.stringify(account));
  },
  setAccount(account) { localStorage.setItem("phz.account", JSON.stringify(account)); },
  clear() {
    localStorage.removeItem("phz.token");
    localStorage.removeItem("phz.account");
  },
};

/** Call ``method path`` with a JSON body; the answer's JSON, or an ApiError in its words. */
export async function api(method, path, body) {
  const headers = {};
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError("network", String(e), 0);
  }
  if (r.status === 204) return null;
  let data = null;
  try { data = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    if (data && data.code) throw new ApiError(data.code, data.reason, r.status);
    if (data && Array.isArray(data.detail)) {
      const d = data.detail[0];
      throw new ApiError("bad_request", `${(d.loc || []).slice(1).join(".")}: ${d.msg}`, r.status);
    }
    throw new ApiError("http", `HTTP ${r.status}`, r.status);
  }
  return data;
}
