/* The PIN form of a staff page (and of the tournament's desk): a right PIN reloads the page, now logged in.
   Below it, a new tablet's enrolment code (display/enrolment.py): typed, or read from the QR code's /ajout#CODE. */
import {$, api} from "./common.js";

const name = () => ($("login-name") ? $("login-name").value.trim() : "") || undefined;

$("login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await api("POST", "/api/login", {pin: $("pin").value, name: name()});
  if (res.ok) location.reload();
  else { $("login-error").textContent = res.data.message; $("pin").select(); }
});

async function enrol() {
  const res = await api("POST", "/api/enrol", {code: $("enrol-input").value, name: name()});
  if (!res.ok) { $("enrol-error").textContent = res.data.message; $("enrol-input").select(); return; }
  if (location.pathname === "/ajout") location.assign(res.data.page);   // the QR code's page: on to the role's own
  else location.reload();
}
$("enrol-form").addEventListener("submit", (ev) => { ev.preventDefault(); enrol(); });
if (location.hash.length > 1) {            // /ajout#CODE: the code never reaches a server's log, nor the history
  $("enrol-input").value = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, "", location.pathname);
  enrol();
}
