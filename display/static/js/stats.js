/* The fairness count on a screen (INTERFACE §11, GET /api/stats/balls): each number with how often it came out,
   tonight and in every archived evening, a bar against the most drawn, the numbers that stand out marked, and the
   uniformity check in plain words with what its figure means (RULES L26: valid however often it is read). Read again every 20 s (the hall keeps its answer: a bounded cost). */
import {$, api, el, t} from "./common.js";

async function show() {
  const res = await api("GET", "/api/stats/balls");
  if (!res.ok) return;
  const d = res.data, counts = d.counts;
  const top = Math.max(1, ...Object.values(counts));
  const marked = new Set(d.check.standouts.map((s) => s.number));
  const cells = [];
  for (let n = 1; n <= 90; n++) {
    const k = counts[String(n)] || 0;
    cells.push(el("div", {class: "stats-cell" + (marked.has(n) ? " stands-out" : ""), "data-n": String(n),
                          "data-count": String(k), title: t("stats_count", {n, count: k})},
      el("span", {class: "stats-n", text: String(n)}), el("span", {class: "stats-k", text: String(k)}),
      el("span", {class: "stats-bar", style: "width:" + Math.round(100 * k / top) + "%"})));
  }
  $("stats-grid").replaceChildren(...cells);
  $("stats-scope").textContent = t("stats_scope", {draws: d.draws, parties: d.parties, evenings: d.evenings});
  $("stats-verdict").textContent = d.check.sentence;
  $("stats-verdict").dataset.verdict = d.check.verdict;
  $("stats-meaning").textContent = d.check.meaning;
  $("stats-pending").hidden = !d.evenings_pending;
  $("stats-pending").textContent = d.evenings_pending ? t("stats_pending", {n: d.evenings_pending}) : "";
  if (d.evenings_pending) setTimeout(show, 1500);
}
show();
setInterval(show, 20000);
