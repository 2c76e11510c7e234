// The first start on a phone: one step at a time, each answer sent as JSON; a refusal is shown in its step,
// which stays as it was (the hall changed nothing).
const words = JSON.parse(document.getElementById("setup-words").textContent);
const forms = [...document.querySelectorAll("form[data-step]")];
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
let polling = null;

async function call(method, path, body) {
  const resp = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await resp.json().catch(() => ({}));
  return { ok: resp.ok, status: resp.status, data };
}

function show(view) {
  if (view.closed) {
    forms.forEach((f) => (f.hidden = true));
    document.getElementById("setup-closed").hidden = false;
    return;
  }
  const next = view.steps.find((s) => !view.done.includes(s)) ?? "finish";
  forms.forEach((f) => (f.hidden = f.dataset.step !== next));
  const at = view.steps.indexOf(next);
  document.getElementById("setup-progress").textContent =
    at < 0 ? "" : fill(words.step, { n: at + 1, of: view.steps.length });
  showBalls(view.balls);
}

function showBalls(search) {
  if (!search) return;
  document.getElementById("setup-balls-now").hidden = false;
  document.getElementById("setup-balls").textContent = search.balls.join("  ·  ");
  const state = document.getElementById("setup-balls-state");
  state.textContent = fill(words[search.state], search.found ?? {});
  if (search.state === "listening" && !polling) polling = setTimeout(refresh, 1000);
}

async function refresh() {
  polling = null;
  const { ok, data } = await call("GET", "/api/setup");
  if (ok) show(data);
}

function answerOf(form, submitter) {
  const body = {};
  for (const input of form.querySelectorAll("input, select")) body[input.name] = input.value;
  if (submitter?.name) body[submitter.name] = submitter.value === "true" ? true : submitter.value === "false" ? false : submitter.value;
  return body;
}

for (const form of forms) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector(".error-line");
    error.textContent = "";
    const step = form.dataset.step;
    const { ok, data } = await call("POST", `/api/setup/${step}`, answerOf(form, event.submitter));
    if (!ok) {
      error.textContent = data.message ?? String(data.error ?? "");
      return;
    }
    if (step === "finish") return show({ closed: true });
    if (data.voice_test) {  // the projector speaks: the volunteer listens, then answers
      document.getElementById("setup-voice-asked").hidden = false;
      return;
    }
    if (data.pins) {  // shown once, here: then the volunteer says the sheet is in hand
      for (const [role, pin] of Object.entries(data.pins)) form.querySelector(`[data-pin="${role}"]`).textContent = pin;
      document.getElementById("setup-pins").hidden = false;
      document.getElementById("setup-make-pins").hidden = true;
      const kept = document.getElementById("setup-pins-kept");
      kept.hidden = false;
      kept.onclick = () => show(data);
      return;
    }
    show(data);
  });
}
refresh();
