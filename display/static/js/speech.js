/* Spoken numbers in French ("quarante-deux … quatre, deux"), only with a French voice: never an English one. */
const UNITS = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
               "douze", "treize", "quatorze", "quinze", "seize"];
const TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"};
// RULES §1c: sourced regional nicknames, off by default
const NICKNAMES = {1: "l'as", 6: "il a la queue en l'air", 9: "la queue en bas", 11: "les gambettes à Jeannot",
  13: "allez l'OM", 22: "les deux cocottes", 31: "Claude Nougaro", 33: "docteur", 51: "le pastis",
  55: "les deux tordus", 59: "bienvenue chez les Ch'tis", 65: "Bernadette, priez pour nous", 80: "coin coin",
  85: "la Vendée", 90: "olé !"};

function words(n) {
  if (n <= 16) return UNITS[n];
  if (n < 20) return "dix-" + UNITS[n - 10];
  if (n < 70) {
    const tens = Math.floor(n / 10), unit = n % 10;
    if (unit === 0) return TENS[tens];
    if (unit === 1) return TENS[tens] + " et un";
    return TENS[tens] + "-" + UNITS[unit];
  }
  if (n < 80) return n === 71 ? "soixante et onze" : "soixante-" + words(n - 60);
  if (n === 80) return "quatre-vingts";
  return "quatre-vingt-" + words(n - 80);
}

function phrase(n, withNickname) {
  let text = words(n);
  if (n >= 10) text += " … " + String(n).split("").map((d) => UNITS[+d]).join(", ");
  if (withNickname && NICKNAMES[n]) text += " … " + NICKNAMES[n];
  return text;
}

let voice = null;
function pickVoice() {
  if (!("speechSynthesis" in window)) return null;
  const voices = speechSynthesis.getVoices().filter((v) => /^fr(-|_|$)/i.test(v.lang));
  voice = voices.find((v) => /fr-FR/i.test(v.lang)) || voices[0] || null;
  return voice;
}
if ("speechSynthesis" in window) {
  pickVoice();
  speechSynthesis.addEventListener("voiceschanged", pickVoice);
}

/* speaks n if enabled and a French voice exists; false when it stays silent */
export function say(n, options) {
  const opts = options || {};
  if (!opts.enabled || !("speechSynthesis" in window) || !(voice || pickVoice())) return false;
  const u = new SpeechSynthesisUtterance(phrase(n, opts.nicknames));
  u.voice = voice; u.lang = voice.lang; u.rate = opts.rate || 0.9;
  speechSynthesis.cancel();
  speechSynthesis.speak(u);
  return true;
}

export const nickname = (n) => NICKNAMES[n] || "";
