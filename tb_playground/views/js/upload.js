// The upload box (kit/upload.py): a file over the limit is refused before it is read.
function words(n) {
  if (n < 1000) return `${n} bytes`
  if (n < 1000000) return `${Math.round(n / 1000)} kB`
  return `${(n / 1000000).toFixed(1)} MB`.replace(".0 MB", " MB")
}
export function render({ model, el }) {
  const input = document.createElement("input")
  input.type = "file"
  input.accept = model.accept
  const limit = document.createElement("div")
  limit.className = "upload-limit"
  limit.textContent = model.limit_text
  const said = document.createElement("div")
  said.className = "upload-refused"
  said.setAttribute("role", "alert")
  input.addEventListener("change", () => {
    const file = input.files && input.files[0]
    if (!file) return
    if (file.size > model.max_bytes) {  // never read: only its size is known
      said.textContent = `${file.name} is ${words(file.size)}: files up to ` +
        `${words(model.max_bytes)} are taken.`
      input.value = ""
      model.refused = said.textContent
      return
    }
    said.textContent = ""
    const reader = new FileReader()
    reader.onload = () => {
      const data = String(reader.result).split(",", 2)[1] || ""
      model.send_msg(Object.fromEntries([["name", file.name], ["data", data]]))
    }
    reader.readAsDataURL(file)
  })
  model.on("msg:custom", (msg) => {
    if (msg.clear) input.value = ""
    if (msg.refused !== undefined) said.textContent = msg.refused
  })
  el.append(input, limit, said)
}

