/* Camera scanning with the barcode-detector ponyfill (ZXing-C++ in WebAssembly, served by the hall itself). */
import {BarcodeDetector, prepareZXingModule} from "../vendor/barcode-detector/ponyfill.js";
import {$, t} from "./common.js";

// never the CDN: the .wasm comes from this service (the hall may have no Internet)
prepareZXingModule({overrides: {locateFile: (path, prefix) =>
  path.endsWith(".wasm") ? new URL("../vendor/barcode-detector/" + path, import.meta.url).href : prefix + path}});

/* start(video, onCode) → stop(); calls onCode(text) once per distinct reading */
async function start(video, onCode, onError) {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) { onError(); return () => {}; }
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({video: {facingMode: "environment"}, audio: false});
  } catch (e) { onError(e); return () => {}; }
  const detector = new BarcodeDetector({formats: ["qr_code", "code_128", "code_39", "data_matrix"]});
  video.srcObject = stream;
  video.hidden = false;
  await video.play().catch(() => {});
  let running = true, last = "";
  (async function loop() {
    while (running) {
      try {
        if (video.readyState >= 2) {
          const codes = await detector.detect(video);
          if (codes.length && codes[0].rawValue && codes[0].rawValue !== last) {
            last = codes[0].rawValue;
            onCode(last);
          }
        }
      } catch (e) { /* a frame that cannot be read: try the next one */ }
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return function stop() {
    running = false;
    stream.getTracks().forEach((tr) => tr.stop());
    video.srcObject = null;
    video.hidden = true;
  };
}

/* The page's scan button (#scan, the #video, the #scan-msg line): a press starts the camera, the next one stops it.
   ``idle`` is the button's word at rest (the label then says « Arrêter la caméra » while it films; null keeps the
   button's own). Returns off(), for a page that stops the camera itself (the controller's verdict). */
export function scanButton(idle, onText) {
  const button = $("scan"), message = $("scan-msg");
  let stop = null;
  const rest = () => { if (idle) button.textContent = t(idle); };
  function off() { if (!stop) return; stop(); stop = null; rest(); }
  button.addEventListener("click", async () => {
    if (stop) { off(); message.textContent = ""; return; }
    message.textContent = t("scanning");
    if (idle) button.textContent = t("scan_stop");
    let failed = false;
    const stopper = await start($("video"), onText, () => { failed = true; message.textContent = t("no_camera"); rest(); });
    stop = failed ? null : stopper;
  });
  return off;
}

/* what a carton's code carries ("A-00412B", its QR code's URL ".../c/A-00412B", a label…), as read: the hall's one
   card-ID reader finds the carton in it (hall/cartons/card_ids.read_card_id), as it does for a typed ID */
export function cardIdFrom(text) {
  return String(text).trim().slice(0, 200);
}
