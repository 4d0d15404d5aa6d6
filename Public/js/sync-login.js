// The login page of a podcast app's Nextcloud sync (Templates/sync-login.mustache): the listener
// types the sync account's name and password; the app polling Earshot then receives them.
// Self-contained: a phone that is not paired may load only this file.

const form = document.getElementById('sync-login-form');
if (form) {
  const user = document.getElementById('sync-user');
  const password = document.getElementById('sync-password');
  const message = form.querySelector('.pair-message');
  const submit = form.querySelector('.pair-submit');
  const say = (text, kind = '') => {
    message.textContent = text;
    message.dataset.kind = kind;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!user.value.trim() || !password.value) {
      say('Enter the sync user name and password.', 'error');
      return;
    }
    submit.disabled = true;
    say('Checking…');
    try {
      const response = await fetch('/index.php/login/v2/grant', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token: form.dataset.token, user: user.value.trim(), password: password.value }),
      });
      const answer = await response.json().catch(() => null);
      if (response.ok) {
        say('Connected. Go back to your podcast app: it finishes by itself.', 'success');
        document.body.dataset.granted = 'true';
        form.querySelectorAll('input').forEach((input) => { input.disabled = true; });
        return;
      }
      say(answer?.error ?? `Login failed (${response.status})`, 'error');
      const retry = Number(response.headers.get('Retry-After'));
      if (response.status === 429 && retry > 0) {
        setTimeout(() => { submit.disabled = false; say(''); }, retry * 1000);
        return;
      }
    } catch {
      say('Could not reach Earshot. Is it still running?', 'error');
    }
    submit.disabled = false;
  });
}
document.body.dataset.ready = 'true';
