// The pairing page: a device that is not paired types the code shown on the Earshot machine (or
// arrives from its QR code, whose URL carries a one-time secret after "#s=") and gets a cookie
// for good. Self-contained on purpose: a stranger may load only this file and pair.js.

import { messageLine, postForm } from './stranger-form.js';

const SECRET = /^#s=([0-9a-f]{32})$/;

/** Wires the form in `doc`; pairs at once when the URL carries the QR code's secret. */
export function initPairing(doc) {
  const form = doc.getElementById('pair-form');
  const code = doc.getElementById('pair-code');
  const name = doc.getElementById('pair-name');
  const submit = form.querySelector('.pair-submit');
  const say = messageLine(form.querySelector('.pair-message'));

  async function pair(body) {
    say('Pairing…');
    const answer = await postForm({ url: '/api/pair', body, submit, say, failure: 'Pairing failed' });
    if (!answer) return;
    say(`Paired as “${answer.device?.name ?? 'this device'}”. Opening Earshot…`, 'success');
    doc.body.dataset.paired = 'true';
    // Same-origin navigation: the new SameSite=Strict cookie goes along.
    window.location.replace('/');
  }

  // Digits only, grouped "123 456" as the host shows them.
  code.addEventListener('input', () => {
    const digits = code.value.replace(/\D/g, '').slice(0, 6);
    const grouped = digits.length > 3 ? `${digits.slice(0, 3)} ${digits.slice(3)}` : digits;
    if (grouped !== code.value) code.value = grouped;
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const digits = code.value.replace(/\D/g, '');
    if (digits.length !== 6) {
      say('The code is six digits.', 'error');
      code.focus();
      return;
    }
    pair({ code: digits, name: name.value.trim() || undefined });
  });

  const match = SECRET.exec(window.location.hash);
  if (match) {
    // Out of the address bar and history at once: the secret is spent by this one use.
    history.replaceState(null, '', window.location.pathname);
    pair({ secret: match[1] });
  }
  doc.body.dataset.ready = 'true';
}
