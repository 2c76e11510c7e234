/* The staff pages' top bar (_nav.html): « Quitter » ends the session and shows the login again. */
import {$, api} from "./common.js";

$("logout").addEventListener("click", async () => { await api("POST", "/api/logout"); location.reload(); });
