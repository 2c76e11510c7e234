/* A question asked in a <dialog> and answered once: the speaker's confirmations, the tie and the démarquez choices.
   A dialog's `close` event is a task of its own, and a loaded Chromium runs the next keys first: a close that
   comes late must never answer (or cancel) the question asked after it. So a question is settled when it is
   answered (answer), by the close event only while it is still the one waiting and its dialog is closed, or,
   closed by the dialog's own form or Escape, as the next question opens. */
/* closed() is the answer of a dialog closed without answer() (its form's returnValue, or null) */
export function question(dialog, closed) {
  let waiting = null;
  const settle = (value) => { const r = waiting; waiting = null; if (r) r(value); };
  dialog.addEventListener("close", () => { if (!dialog.open) settle(closed()); });
  return {
    ask() {
      settle(closed());
      return new Promise((resolve) => {
        waiting = resolve;
        dialog.returnValue = "";
        if (!dialog.open) dialog.showModal();
      });
    },
    answer(value) {
      const r = waiting; waiting = null;
      if (dialog.open) dialog.close();
      if (r) r(value);
    },
  };
}
