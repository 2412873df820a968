import type { MailMessage } from './mailer.js';

export interface KybStatusMail {
  to: string;
  name: string;
  status: 'pending' | 'documents_submitted' | 'under_review' | 'verified' | 'rejected';
  rejectionReason: string | null;
}

const SUBJECTS: Record<KybStatusMail['status'], string> = {
  pending: 'Your KYB is waiting for documents',
  documents_submitted: 'Your KYB documents were received',
  under_review: 'Your KYB is under review',
  verified: 'Your KYB is verified: production is open',
  rejected: 'Your KYB was refused',
};

const BODIES: Record<KybStatusMail['status'], (mail: KybStatusMail) => string[]> = {
  pending: () => [
    'Your KYB has no document left to review. Upload your Kbis, the identity document of your',
    'legal representative and your articles of association: POST /api/v1/tenant/kyb/documents.',
  ],
  documents_submitted: () => [
    'We received your KYB documents. An administrator will review them; you will hear from us',
    'when the review starts and when it ends. GET /api/v1/tenant/kyb/status shows where it stands.',
  ],
  under_review: () => ['An administrator is reviewing your KYB documents.'],
  verified: () => ['Your KYB is verified: your production keys work from now on. Sandbox keys keep working too.'],
  rejected: (mail) => [
    'Your KYB was refused.',
    '',
    `Reason: ${mail.rejectionReason ?? 'not given'}`,
    '',
    'Upload new documents (POST /api/v1/tenant/kyb/documents) and they go back to review.',
    'Sandbox keys keep working meanwhile.',
  ],
};

/** The mail a tenant gets each time its KYB changes status. */
export function kybStatusMail(mail: KybStatusMail): MailMessage {
  return {
    to: mail.to,
    subject: SUBJECTS[mail.status],
    text: ['Hello,', '', `KYB of ${mail.name}:`, '', ...BODIES[mail.status](mail)].join('\n'),
  };
}
