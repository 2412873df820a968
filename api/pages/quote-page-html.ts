import type { QuotePageView } from '../../schemas/quotes.js';
import { escapeHtml } from './signing-page-html.js';

/** The HTML of a quote's public page: pure functions of what view_quote_page answers. */

/** Scripts from this service only, the nonce'd inline style; no framing, forms post to the page itself. */
export const quotePageCsp = (nonce: string): string =>
  `default-src 'none'; script-src 'self'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1f2933}' +
  'table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}' +
  'td.n,th.n{text-align:right}section{margin:1.5rem 0}input{padding:.4rem;min-width:16rem}' +
  'button{padding:.6rem 1.2rem;border:0;border-radius:4px;background:#2f8132;color:#fff;cursor:pointer;margin-right:.5rem}' +
  'button#refuse{background:#9b2c2c}[hidden]{display:none!important}.error{color:#9b2c2c}';

const money = (value: number, currency: string) => `${value.toFixed(2)} ${escapeHtml(currency)}`;

function shell(title: string, nonce: string, body: string, script: boolean): string {
  return `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body>
${body}
${script ? '<script src="/quote.js" defer></script>' : ''}
</body>
</html>
`;
}

const OUTCOME: Record<string, string> = {
  accepted: 'Vous avez accepté ce devis.',
  converted: 'Vous avez accepté ce devis.',
  refused: 'Vous avez refusé ce devis.',
  expired: 'Ce devis a expiré : il ne peut plus être accepté.',
  cancelled: 'Ce devis a été annulé.',
};

/** The quote and, while it can be answered, the acceptance (typed name) and refusal forms. */
export function quotePageHtml(token: string, q: QuotePageView, nonce: string): string {
  const open = q.status === 'sent' || q.status === 'viewed';
  const rows = q.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}</td><td class="n">${l.quantity}</td><td class="n">${money(l.unit_price, q.currency)}</td><td class="n">${l.tax_rate.toFixed(2)} %</td><td class="n">${money(l.total_ht, q.currency)}</td></tr>`,
    )
    .join('\n');
  const answer = open
    ? `<section id="answer" data-token="${escapeHtml(token)}">
<h2>Votre réponse</h2>
<form id="accept-form"><label>Nom et prénom (signature) <input id="signer-name" name="signer_name" required maxlength="200" autocomplete="name"></label>
<label>E-mail <input id="signer-email" name="signer_email" type="email" maxlength="255" autocomplete="email"></label>
<p><button type="submit" id="accept">Accepter le devis</button></p></form>
<form id="refuse-form"><label>Motif du refus (facultatif) <input id="refuse-reason" name="reason" maxlength="1000"></label>
<p><button type="submit" id="refuse">Refuser le devis</button></p></form>
<p id="error" class="error" role="alert" hidden></p>
</section>`
    : '';
  const body = `<header><h1>Devis ${escapeHtml(q.quote_number)}</h1>
<p>${escapeHtml(q.seller_name)} pour ${escapeHtml(q.buyer_name)} — émis le ${escapeHtml(q.issue_date)}, valable jusqu'au ${escapeHtml(q.validity_date)}</p></header>
<p id="status" data-status="${escapeHtml(q.status)}">${escapeHtml(OUTCOME[q.status] ?? '')}</p>
<table><thead><tr><th>Désignation</th><th class="n">Qté</th><th class="n">PU HT</th><th class="n">TVA</th><th class="n">Total HT</th></tr></thead>
<tbody>${rows}</tbody></table>
<section><p>Total HT : <strong>${money(q.total_ht, q.currency)}</strong> — TVA : ${money(q.total_tax, q.currency)} — Total TTC : <strong id="total-ttc">${money(q.total_ttc, q.currency)}</strong></p>
${q.payment_terms ? `<p>${escapeHtml(q.payment_terms)}</p>` : ''}${q.notes ? `<p>${escapeHtml(q.notes)}</p>` : ''}</section>
${answer}`;
  return shell(`Devis ${q.quote_number}`, nonce, body, open);
}

export const quoteMessagePage = (nonce: string, title: string, text: string): string =>
  shell(title, nonce, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`, false);

/** The page's script: posts the answer as JSON to the page's routes, then shows the outcome. */
export const QUOTE_PAGE_SCRIPT = `(() => {
  const answer = document.getElementById('answer');
  if (!answer) return;
  const token = answer.dataset.token;
  const error = document.getElementById('error');
  const status = document.getElementById('status');
  async function post(path, body) {
    error.hidden = true;
    const res = await fetch('/quote/' + encodeURIComponent(token) + '/' + path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin',
    });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) { error.textContent = json.message || 'Erreur ' + res.status; error.hidden = false; return; }
    if (json.redirect_url) { window.location.assign(json.redirect_url); return; }
    answer.hidden = true;
    status.dataset.status = json.status;
    status.textContent = json.status === 'accepted' ? 'Vous avez accepté ce devis.' : 'Vous avez refusé ce devis.';
  }
  document.getElementById('accept-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const email = document.getElementById('signer-email').value.trim();
    post('accept', { signer_name: document.getElementById('signer-name').value, ...(email ? { signer_email: email } : {}) });
  });
  document.getElementById('refuse-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const reason = document.getElementById('refuse-reason').value.trim();
    post('refuse', reason ? { reason } : {});
  });
})();
`;
