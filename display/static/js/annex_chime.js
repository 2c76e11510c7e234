/* The salle annexe's chime in the main room (RULES L23): three tones of its own, made here (no clip, nothing
   fetched), so the speaker hears at once that the claim came from the other room. Each chime is counted on
   <body data-annex-chimes> for a test to see it rang. */
let ctx = null;

export function annexChime() {
  document.body.dataset.annexChimes = String((Number(document.body.dataset.annexChimes) || 0) + 1);
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    const now = ctx.currentTime;
    for (const [hz, at] of [[988, 0], [740, 0.22], [988, 0.44]]) {
      const tone = ctx.createOscillator(), gain = ctx.createGain();
      tone.type = "sine";
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.5, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.2);
      tone.connect(gain).connect(ctx.destination);
      tone.start(now + at);
      tone.stop(now + at + 0.22);
    }
  } catch (e) { /* no sound output: the banner says it all the same */ }
}
