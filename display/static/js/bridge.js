/* Transitional: the old page globals for the scripts not yet written as modules (removed once none is left). */
import {io} from "../vendor/socket.io/socket.io.esm.min.js";
import * as common from "./common.js";
import * as ids from "./ids.js";
import * as scan from "./scan.js";
import {verdictText} from "./staff.js";

window.io = io;
window.LOTO = common.boot;
window.Loto = common;
window.Ids = ids;
window.Scan = scan;
window.Staff = {verdictText, lotName: common.lotName};
