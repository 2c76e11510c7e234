/* The staff pages' top bar (_nav.html): « Quitter » ends the session and shows the login again; « Ajouter une
   tablette » shows a one-time code and its QR code for a role this console holds (display/enrolment.py). Its words
   are in the dialog's markup: the bar serves every staff page, the tournament's desk included. */
import {$, api} from "./common.js";

$("logout").addEventListener("click", async () => { await api("POST", "/api/logout"); location.reload(); });

const dialog = $("enrol-dialog");
let ticking = null;

function countdown(until) {
  clearInterval(ticking);
  const left = $("enrol-left");
  const tick = () => {
    const s = Math.round((until - Date.now()) / 1000);
    if (s > 0) { left.textContent = left.dataset.left.replace("{s}", s); return; }
    left.textContent = left.dataset.gone;
    $("enrol-offer").classList.add("gone");
    clearInterval(ticking);
  };
  tick();
  ticking = setInterval(tick, 1000);
}

if (dialog) {
  $("enrol-open").addEventListener("click", () => dialog.showModal());
  $("enrol-close").addEventListener("click", () => { clearInterval(ticking); dialog.close(); });
  dialog.querySelectorAll("[data-enrol-role]").forEach((b) => b.addEventListener("click", async () => {
    const res = await api("POST", "/api/enrolments", {role: b.dataset.enrolRole});
    $("enrol-made-error").textContent = res.ok ? "" : res.data.message;
    if (!res.ok) return;
    $("enrol-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(res.data.qr_svg);
    $("enrol-role").textContent = b.textContent;
    $("enrol-code").textContent = res.data.code;
    $("enrol-offer").hidden = false;
    $("enrol-offer").classList.remove("gone");
    countdown(Date.now() + res.data.expires_in * 1000);
  }));
}
