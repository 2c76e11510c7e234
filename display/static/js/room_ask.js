/* /j: the table's code typed (four letters, on the screen) opens that table's page. */
import {$} from "./common.js";

$("ask-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const code = $("ask-code").value.trim().toUpperCase();
  if (/^[A-Z]{4}$/.test(code)) location.href = "/j/" + code;
});
