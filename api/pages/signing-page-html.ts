import type { SigningPageView } from '../../domain/signatures/operations/index.js';

/** The HTML of the simulator's signing page: pure functions of what get_signing_page answers. */

/** What the page is made from: get_signing_page's answer. */
export type SigningPageData = SigningPageView;

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const COLOUR = /^#[0-9A-Fa-f]{6}$/;
const colourOf = (ui: Record<string, unknown>, ...keys: string[]): string | null => {
  for (const key of keys) {
    const value = ui[key];
    if (typeof value === 'string' && COLOUR.test(value)) return value;
  }
  return null;
};

/**
 * The page's CSS: the defaults, then the request's colours (each checked to be `#RRGGBB` again, so
 * nothing but a colour reaches the style sheet).
 */
function styleOf(ui: Record<string, unknown>): string {
  const rules: string[] = [
    'body{font-family:system-ui,sans-serif;margin:0;color:#1f2933;background:#f5f7fa}',
    'header,footer{padding:1rem 2rem;background:#fff}',
    'main{display:flex;gap:2rem;padding:1rem 2rem;flex-wrap:wrap}',
    'aside{min-width:14rem;padding:1rem;background:#243b53;color:#fff}',
    'section{margin:1rem 0}',
    'iframe{width:100%;max-width:48rem;height:32rem;border:1px solid #ccc;background:#fff}',
    'canvas{border:1px solid #888;background:#fff;touch-action:none}',
    'button{padding:.5rem 1rem;border:0;border-radius:4px;background:#334e68;color:#fff;cursor:pointer}',
    'button#sign{background:#2f8132}',
    '[hidden]{display:none!important}',
  ];
  const add = (selector: string, property: string, value: string | null) => {
    if (value) rules.push(`${selector}{${property}:${value}}`);
  };
  add('aside', 'background', colourOf(ui, 'sidebar_background_color', 'primary_color'));
  add('aside h2', 'color', colourOf(ui, 'sidebar_title_color'));
  add('aside', 'color', colourOf(ui, 'sidebar_text_color'));
  add('header', 'background', colourOf(ui, 'header_background_color'));
  add('header h1', 'color', colourOf(ui, 'header_title_color'));
  add('header p', 'color', colourOf(ui, 'header_subtitle_color'));
  add('footer', 'background', colourOf(ui, 'footer_background_color'));
  add('button', 'color', colourOf(ui, 'button_text_color'));
  add('button:hover', 'color', colourOf(ui, 'button_text_color_hover'));
  add('button', 'background', colourOf(ui, 'button_background_color', 'primary_color'));
  add('button:hover', 'background', colourOf(ui, 'button_background_color_hover'));
  add('button#sign', 'color', colourOf(ui, 'sign_button_text_color'));
  add('button#sign:hover', 'color', colourOf(ui, 'sign_button_text_color_hover'));
  add('button#sign', 'background', colourOf(ui, 'sign_button_background_color'));
  add('button#sign:hover', 'background', colourOf(ui, 'sign_button_background_color_hover'));
  return rules.join('\n');
}

function shell(title: string, nonce: string, ui: Record<string, unknown>, body: string, script: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${styleOf(ui)}</style>
</head>
<body>
${body}
${script ? '<script src="/sign.js"></script>' : ''}
</body>
</html>
`;
}

/** A page that only says something: an unknown link, a closed request, a signer who has answered. */
export function messagePage(nonce: string, heading: string, text: string, ui: Record<string, unknown> = {}): string {
  return shell(
    heading,
    nonce,
    ui,
    `<main><div><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p></div></main>`,
    false,
  );
}

const CLOSED: Record<string, string> = {
  completed: 'Every signer has signed this document: the signature request is completed.',
  refused: 'A signer refused to sign this document: the signature request is refused.',
  expired: 'This signature request has expired: it can no longer be signed.',
  cancelled: 'This signature request was cancelled by its sender: it can no longer be signed.',
  failed: 'The signature service could not take this signature request: it can no longer be signed.',
};

/** The signing page for a token, by the request's and the signer's state. */
export function signingPageHtml(token: string, data: SigningPageData, nonce: string): string {
  const ui = data.ui_config ?? {};
  if (data.signer_status === 'signed') {
    return messagePage(nonce, 'Thank you, you have signed', `Your signature of "${data.title}" is recorded.`, ui);
  }
  if (data.signer_status === 'refused') {
    return messagePage(nonce, 'You refused to sign', `Your refusal of "${data.title}" is recorded.`, ui);
  }
  if (data.status !== 'pending') {
    return messagePage(nonce, `This request is ${data.status}`, CLOSED[data.status] ?? data.status, ui);
  }
  const logo =
    typeof ui.sidebar_logo === 'string' ? ui.sidebar_logo : typeof ui.logo_url === 'string' ? ui.logo_url : null;
  const company = typeof ui.company_name === 'string' ? ui.company_name : null;
  const documentUrl = `/sign/${encodeURIComponent(token)}/document`;
  const typed = data.signature_mode !== 'drawn';
  const drawn = data.signature_mode !== 'typed';
  const header = ui.hide_header
    ? ''
    : `<header><h1>${escapeHtml(data.title)}</h1>${data.description ? `<p>${escapeHtml(data.description)}</p>` : ''}</header>`;
  const sidebar = ui.hide_sidebar
    ? ''
    : `<aside>${logo ? `<img src="${escapeHtml(logo)}" alt="" width="160">` : ''}${company ? `<h2>${escapeHtml(company)}</h2>` : ''}<p>Signer: ${escapeHtml(data.signer_name)}</p>${data.environment === 'sandbox' ? '<p><strong>Sandbox</strong>: the code is 000000.</p>' : ''}</aside>`;
  const body = `${header}
<main data-mode="${escapeHtml(data.signature_mode)}" data-complete-url="${escapeHtml(data.redirect_complete_url ?? '')}" data-cancel-url="${escapeHtml(data.redirect_cancel_url ?? '')}">
${sidebar}
<div>
<section>
<h2>The document</h2>
<iframe src="${documentUrl}" title="${escapeHtml(data.document_name)}"></iframe>
${ui.hide_download_validated ? '' : `<p><a href="${documentUrl}" target="_blank" rel="noopener">Open ${escapeHtml(data.document_name)}</a></p>`}
</section>
<section id="step-code">
<h2>1. Confirm it is you</h2>
<button id="send-code" type="button">Send me a code</button>
<p><label>Code <input id="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}"></label>
<button id="verify-code" type="button">Confirm the code</button></p>
</section>
<section id="step-sign" hidden>
<h2>2. Sign</h2>
${typed ? '<p><label>Type your full name <input id="typed-name" maxlength="200"></label></p>' : ''}
${drawn ? `<p>${typed ? 'Or draw' : 'Draw'} your signature:</p><canvas id="pad" width="400" height="150" aria-label="Signature pad"></canvas><p><button id="clear-pad" type="button">Clear</button></p>` : ''}
<p><button id="sign" type="button">Sign the document</button></p>
<details><summary>Refuse to sign</summary>
<p><label>Reason <textarea id="refuse-reason" maxlength="1000" rows="3"></textarea></label></p>
<p><button id="refuse" type="button">Refuse to sign</button></p>
</details>
</section>
<p id="result" role="status" aria-live="polite"></p>
</div>
</main>
<footer><small>Simple electronic signature (eIDAS). Your address and browser are recorded with your answer.</small></footer>`;
  return shell(data.title, nonce, ui, body, true);
}

/** The Content-Security-Policy of the page: scripts from files only, embeddable only by `iframe_ancestors`. */
export function signingPageCsp(nonce: string, ui: Record<string, unknown> | null): string {
  const ancestors = Array.isArray(ui?.iframe_ancestors)
    ? (ui.iframe_ancestors as unknown[]).filter(
        (origin): origin is string => typeof origin === 'string' && /^https?:\/\/[A-Za-z0-9.:[\]-]+$/.test(origin),
      )
    : [];
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' https: data:",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}`,
  ].join('; ');
}
