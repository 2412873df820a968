import type { QuoteMail } from '../../schemas/quotes.js';
import type { Mailer } from '../mail/index.js';

const frenchDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The mail a buyer receives when a quote is sent: who sends it, its total, its validity and the link. */
export function quoteMail(mail: QuoteMail & { to: string; public_url: string }): Parameters<Mailer['send']>[0] {
  return {
    to: mail.to,
    subject: `Devis ${mail.quote_number} de ${mail.seller_name}`,
    text: [
      'Bonjour,',
      '',
      `${mail.seller_name} vous adresse le devis ${mail.quote_number} pour ${mail.buyer_name}, d'un montant de ${mail.total_ttc.toFixed(2)} ${mail.currency} TTC, valable jusqu'au ${frenchDate(mail.validity_date)}.`,
      '',
      'Consultez-le, acceptez-le ou refusez-le en ligne :',
      mail.public_url,
      '',
      "Si vous n'attendiez pas ce devis, ignorez ce message.",
    ].join('\n'),
  };
}
