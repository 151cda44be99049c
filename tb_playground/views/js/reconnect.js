// Each time a page loses the server (kit/shell.py, keep_connected; see RECONNECT_JS there).
// `token`, `buffers` and `poll` say which parts were shown on the BokehJS served (patches.py,
// RECONNECT_JS_PARTS); each part also checks the names it uses and stays out without them.
const lost = (cb_data && cb_data.reconnect) ? cb_data : cb_obj
const conn = lost && lost.connection && lost.connection.deref && lost.connection.deref()
const b64decode = (s) => {
  s = s.replace(/-/g, "+").replace(/_/g, "/")
  while (s.length % 4) s += "="
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
}
const b64encode = (bytes) => {
  let bin = ""
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}
const pipe = async (bytes, stream) =>
  new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer())
const retoken = async () => {
  if (!token || !conn || typeof conn.token !== "string" || conn.token.includes(".") ||
      typeof CompressionStream === "undefined") return
  const outer = JSON.parse(new TextDecoder().decode(b64decode(conn.token)))
  const key = "__bk__zlib_"
  let extra = {}
  if (outer[key]) {
    extra = JSON.parse(new TextDecoder().decode(
      await pipe(b64decode(outer[key]), new DecompressionStream("deflate"))))
  }
  const args = {}
  for (const [k, v] of new URLSearchParams(window.location.search)) {
    (args[k] = args[k] || []).push({bytes: b64encode(new TextEncoder().encode(v))})
  }
  extra.arguments = args
  // and the cookies the page set since it was first opened (the player's seat token: without
  // it the restarted server took the page for another phone and asked to take its seat over)
  const cookies = {...(extra.cookies || {})}
  for (const part of document.cookie.split(";")) {
    const at = part.indexOf("=")
    if (at > 0) cookies[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim())
  }
  extra.cookies = cookies
  const packed = await pipe(new TextEncoder().encode(JSON.stringify(extra)),
                            new CompressionStream("deflate"))
  outer[key] = b64encode(packed)
  conn.token = b64encode(new TextEncoder().encode(JSON.stringify(outer)))
}
// Bokeh 3.9 re-reads the document a restarted server sends without its binary buffers
// (ClientConnection._repull_session_doc calls document.replace_with_json(doc_json) alone), so a
// page holding arrays (a chart, a table) failed with "buffer for id=... not found" and stayed
// dead. Hand the pulled buffers to the replacement, once per connection.
if (buffers && conn && !conn.__tb_buffers && typeof conn._pull_doc_json === "function") {
  conn.__tb_buffers = true
  const pull = conn._pull_doc_json.bind(conn)
  conn._pull_doc_json = async () => {
    const pulled = await pull()
    const doc = conn.session && conn.session.document
    if (doc) {
      doc.replace_with_json = function (json) {
        this.constructor.from_json(json, undefined, pulled.buffers).destructively_move(this)
      }
    }
    return pulled
  }
}
retoken().catch((e) => console.warn("tb_playground: keeping the address failed", e))
// Bokeh waits 2, 4, 8 and 16 s between its tries, so a page found a server that was back only up
// to 16 s later (22 s was seen): try every second while the server is gone (issue 31, "Coming
// back": within 5 s). And a tap while it is gone was lost in silence (Bokeh drops what it
// cannot send, and the document the server sends back undoes it): a veil over the page takes
// the taps and says so, until the page is back.
const VEIL = "tb-offline-veil"
const veil = () => {
  if (document.getElementById(VEIL)) return
  const v = document.createElement("div")
  v.id = VEIL
  v.setAttribute("role", "alert")
  v.textContent = "Connection lost: nothing you tap is sent. The page comes back by itself."
  v.style.cssText = "position:fixed;inset:0;z-index:9000;display:flex;align-items:flex-end;" +
    "justify-content:center;padding:0 1em 5em;background:rgba(0,0,0,0.25);color:#fff;" +
    "font:600 16px/1.4 system-ui,sans-serif;text-align:center;text-shadow:0 1px 2px #000"
  document.body.appendChild(v)
}
const unveil = () => { const v = document.getElementById(VEIL); if (v) v.remove() }
const ok = poll && conn && typeof conn.reconnect === "function" && "socket" in conn
if (ok) {
  veil()
  const doc = conn.session && conn.session.document
  if (doc && typeof doc.on_event === "function" && !doc.__tb_unveil) {
    doc.__tb_unveil = true
    doc.on_event("client_reconnected", unveil)  // the server's document is back in the page
  }
  if (!conn.__tb_poll) {
    conn.__tb_poll = setInterval(() => {
      const state = conn.socket ? conn.socket.readyState : null
      if (conn.closed_permanently || state === WebSocket.OPEN) {
        clearInterval(conn.__tb_poll)
        conn.__tb_poll = null
      } else if (state !== WebSocket.CONNECTING) {
        conn.reconnect()
      }
    }, 1000)
  }
} else if (lost && lost.timeout == null && lost.reconnect) {
  setTimeout(() => lost.reconnect(), 5000)
}
