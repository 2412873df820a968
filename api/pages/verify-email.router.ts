import Router from '@koa/router';

/**
 * The page the verification mail links to (`/verify-email?token=…`). Opening it verifies nothing:
 * mail scanners open links. The person presses a button, and the page's script posts the token to
 * `POST /api/v1/auth/verify-email`, the same rate-limited operation an integrator's dashboard
 * calls. The script is a file of its own, so the page runs under `script-src 'self'`; the token
 * never leaves the browser but to our own API.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Confirm your e-mail address</title>
</head>
<body>
<main>
<h1>Confirm your e-mail address</h1>
<p>Press the button to confirm that this address is yours. If you did not create an account, close this page.</p>
<button id="confirm" type="button">Confirm my e-mail address</button>
<p id="result" role="status" aria-live="polite"></p>
</main>
<script src="/verify-email.js"></script>
</body>
</html>
`;

const SCRIPT = `'use strict';
(function () {
  var button = document.getElementById('confirm');
  var result = document.getElementById('result');
  var token = new URLSearchParams(window.location.search).get('token');
  if (!token) {
    button.disabled = true;
    result.textContent = 'This link has no token. Open the link from the mail again.';
    return;
  }
  button.addEventListener('click', function () {
    button.disabled = true;
    result.textContent = 'Confirming…';
    fetch('/api/v1/auth/verify-email', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: token }),
    })
      .then(function (res) {
        return res.json().then(function (body) {
          result.textContent = body.message || (res.ok ? 'Confirmed.' : 'This link cannot be used.');
          if (!res.ok && res.status === 429) button.disabled = false;
        });
      })
      .catch(function () {
        result.textContent = 'The service cannot be reached. Try again.';
        button.disabled = false;
      });
  });
})();
`;

export function verifyEmailPageRouter(): Router {
  const router = new Router();
  router.get('/verify-email', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = PAGE;
  });
  router.get('/verify-email.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = SCRIPT;
  });
  return router;
}
