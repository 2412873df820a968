/**
 * The signing page's script, served as /sign.js (the page runs under `script-src 'self'`): asks for
 * a code, checks it, then signs with a typed name or a drawing on the canvas (a PNG data URL), or
 * refuses with a reason. Every call goes to this origin with the token of the page's own URL.
 */
export const SIGNING_PAGE_SCRIPT = `'use strict';
(function () {
  var main = document.querySelector('main[data-mode]');
  if (!main) return;
  var token = window.location.pathname.split('/')[2];
  var base = '/sign/' + token;
  var result = document.getElementById('result');
  var say = function (text) { result.textContent = text; };
  var call = function (path, body) {
    return fetch(base + path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body || {}),
    }).then(function (res) {
      return res.json().then(function (json) { return { ok: res.ok, body: json }; });
    });
  };
  var failed = function () { say('The service cannot be reached. Try again.'); };
  var finish = function (url) {
    if (url) window.location.assign(url);
    else window.location.reload();
  };

  document.getElementById('send-code').addEventListener('click', function () {
    say('Sending a code…');
    call('/otp').then(function (r) { say(r.body.message); }, failed);
  });
  document.getElementById('verify-code').addEventListener('click', function () {
    var code = document.getElementById('code').value.trim();
    call('/otp/verify', { code: code }).then(function (r) {
      say(r.body.message);
      if (r.ok) {
        document.getElementById('step-code').hidden = true;
        document.getElementById('step-sign').hidden = false;
      }
    }, failed);
  });

  var pad = document.getElementById('pad');
  var drawn = false;
  if (pad) {
    var ctx = pad.getContext('2d');
    ctx.lineWidth = 2;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#102a43';
    var down = false;
    var at = function (e) {
      var box = pad.getBoundingClientRect();
      return { x: (e.clientX - box.left) * (pad.width / box.width), y: (e.clientY - box.top) * (pad.height / box.height) };
    };
    pad.addEventListener('pointerdown', function (e) {
      down = true;
      var p = at(e);
      ctx.beginPath();
      ctx.moveTo(p.x, p.y);
    });
    pad.addEventListener('pointermove', function (e) {
      if (!down) return;
      var p = at(e);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      drawn = true;
    });
    var up = function () { down = false; };
    pad.addEventListener('pointerup', up);
    pad.addEventListener('pointerleave', up);
    document.getElementById('clear-pad').addEventListener('click', function () {
      ctx.clearRect(0, 0, pad.width, pad.height);
      drawn = false;
    });
  }

  document.getElementById('sign').addEventListener('click', function () {
    var typed = document.getElementById('typed-name');
    var body = {};
    if (drawn) body.drawing = pad.toDataURL('image/png');
    else if (typed && typed.value.trim()) body.typed_name = typed.value.trim();
    else return say(pad ? 'Draw your signature or type your name.' : 'Type your name.');
    say('Signing…');
    call('/sign', body).then(function (r) {
      say(r.body.message);
      if (r.ok) finish(main.dataset.completeUrl);
    }, failed);
  });
  document.getElementById('refuse').addEventListener('click', function () {
    var reason = document.getElementById('refuse-reason').value.trim();
    if (!reason) return say('Give a reason for your refusal.');
    call('/refuse', { reason: reason }).then(function (r) {
      say(r.body.message);
      if (r.ok) finish(main.dataset.cancelUrl);
    }, failed);
  });
})();
`;
