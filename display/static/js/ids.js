/* Carton IDs as people read them: the check character set apart ("A-00412 K", a no-break space), never wrapped.
   The stored and typed form stays "A-00412K" (the hall accepts both, and no dash, lower case, O/I for 0/1). */
const GENERATED = /^([A-HJ-NP-Z]{1,3})-(\d{5}|[1-9]\d{5,})([0-9A-HJ-NP-Z])$/;

export function show(id) {
  const m = GENERATED.exec(id || "");
  return m ? m[1] + "-" + m[2] + "\u00a0" + m[3] : (id || "");
}

/* a <span class="id"> holding the number and its check character in a span of its own */
export function node(id) {
  const span = document.createElement("span");
  span.className = "id";
  const m = GENERATED.exec(id || "");
  if (!m) { span.textContent = id || ""; return span; }
  const check = document.createElement("span");
  check.className = "id-check";
  check.textContent = m[3];
  span.append(m[1] + "-" + m[2] + "\u00a0", check);
  return span;
}
