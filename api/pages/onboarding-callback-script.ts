/**
 * The onboarding callback page's script, served from /onboarding/callback.js (the CSP allows
 * scripts from this origin only, never inline). It reads what the page carries in data attributes
 * and posts it to the window that opened the popup, to that window's expected origin only (the
 * origin of the session's `callback_url`), then closes the popup.
 */
export const ONBOARDING_CALLBACK_SCRIPT = `(function () {
  'use strict';
  var el = document.getElementById('onboarding');
  if (!el) return;
  var data = el.dataset;
  var message = {
    type: 'einvoice:onboarding',
    session_id: data.session || null,
    code: data.code || null,
    state: data.state || null,
    error: data.error || null,
    error_description: data.errorDescription || null
  };
  var status = document.getElementById('status');
  if (window.opener && data.origin) {
    window.opener.postMessage(message, data.origin);
    if (status) status.textContent = 'Done. This window closes itself.';
    setTimeout(function () { window.close(); }, 50);
  } else if (status) {
    status.textContent = message.error
      ? 'The onboarding was not completed. You can close this window.'
      : 'Your account is ready. You can close this window and return to the application.';
  }
})();
`;
