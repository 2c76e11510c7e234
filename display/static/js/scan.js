/* Camera scanning with the barcode-detector ponyfill (ZXing-C++ in WebAssembly, served by the hall itself). */
import {BarcodeDetector, prepareZXingModule} from "../vendor/barcode-detector/ponyfill.js";

// never the CDN: the .wasm comes from this service (the hall may have no Internet)
prepareZXingModule({overrides: {locateFile: (path, prefix) =>
  path.endsWith(".wasm") ? new URL("../vendor/barcode-detector/" + path, import.meta.url).href : prefix + path}});

/* start(video, onCode) → stop(); calls onCode(text) once per distinct reading */
export async function start(video, onCode, onError) {
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

/* the carton ID inside whatever the code carries ("A-00412B", "LOTO1:A-00412B:MAC", a URL…) */
export function cardIdFrom(text) {
  const s = String(text).trim().toUpperCase();
  const generated = s.match(/[A-Z]{1,3}-\d{5,}[0-9A-Z]/);
  if (generated) return generated[0];
  const parts = s.split(/[:/?=#\s]+/).filter((p) => /^[A-Z0-9-]{1,32}$/.test(p));
  return parts.length ? parts[parts.length - 1] : s.slice(0, 32);
}

export function voucherFrom(text) {
  const s = String(text).trim().toUpperCase();
  const m = s.match(/\d{5,}-[A-Z2-7]{8}/);
  return m ? m[0] : s.slice(0, 40);
}
