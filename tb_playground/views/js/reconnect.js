// Each time a page loses the server (kit/shell.py, keep_connected; see RECONNECT_JS there).
// `token` and `buffers` say which parts were shown on the BokehJS served (patches.py,
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
if (lost && lost.timeout == null && lost.reconnect) {
  setTimeout(() => lost.reconnect(), 5000)
}
