/* The PIN form of a staff page (and of the tournament's desk): a right PIN reloads the page, now logged in. */
import {$, api} from "./common.js";

$("login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await api("POST", "/api/login", {pin: $("pin").value});
  if (res.ok) location.reload();
  else { $("login-error").textContent = res.data.message; $("pin").select(); }
});
