/* /admin: the live consoles (role, first name typed at login, device, last action), ending one (display/api_door.py). */
import {$, api, el, t} from "./common.js";
import {ask} from "./ask.js";

function ago(s) {
  if (s < 60) return t("consoles_now");
  return s < 5400 ? t("consoles_minutes", {n: Math.round(s / 60)}) : t("consoles_hours", {n: Math.round(s / 3600)});
}

/* "Android · Chrome": what a volunteer recognises of a browser, never the whole User-Agent */
function browser(ua) {
  const os = ["iPhone", "iPad", "Android", "Windows", "Mac OS", "Linux", "CrOS"].find((w) => ua.includes(w));
  const nav = ["Firefox", "Edg", "SamsungBrowser", "Chrome", "Safari"].find((w) => ua.includes(w));
  return [os, nav === "Edg" ? "Edge" : nav].filter(Boolean).join(" · ");
}

async function end(row, forget) {
  const res = await api("POST", "/api/consoles/" + row.ref + "/end", {forget});
  $("consoles-msg").textContent = res.ok ? t(forget ? "consoles_forgotten" : "consoles_ended") : res.data.message;
  load();
}

async function load() {
  const res = await api("GET", "/api/consoles");
  if (!res.ok) return;
  $("consoles").replaceChildren(...res.data.consoles.map((c) => el("tr", {class: c.self ? "self" : "", "data-console": c.ref},
    el("td", {text: t("role_" + c.role)}),
    el("td", {text: c.name || t("consoles_unnamed")}),
    el("td", {}, el("div", {text: browser(c.ua || "")}), el("div", {class: "dim", text: c.addr + (c.device ? " · " + c.device : "")})),
    el("td", {text: ago(c.seen_s)}),
    el("td", {}, c.self ? el("span", {class: "dim", text: t("consoles_self")}) : el("span", {class: "row-buttons"},
      el("button", {type: "button", text: t("consoles_end"), onclick: () => end(c, false)}),
      el("button", {type: "button", class: "danger", text: t("consoles_forget"),
                    onclick: async () => { if (await ask(t("consoles_forget_ask"), {danger: true, yes: t("consoles_forget")})) end(c, true); }}))))));
}
load();
setInterval(load, 15000);
