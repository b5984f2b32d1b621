import { MailMessage } from '../../mail/mail.service';

/**
 * The double opt-in e-mail. Anyone can have it sent to any address, so it carries nothing the requester
 * typed (no name): only our text and our links, the unsubscribe link included as in every newsletter mail.
 */
export function newsletterConfirmationMail(input: {
  to: string;
  shopName: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const text = [
    'Hello,',
    '',
    `please confirm that you want to receive the newsletter of ${input.shopName} at this address:`,
    input.confirmUrl,
    '',
    'If you did not ask for it, ignore this e-mail: without confirmation you will get no newsletter.',
    '',
    '--',
    `To stop all newsletter e-mails to this address, unsubscribe here: ${input.unsubscribeUrl}`,
  ];
  return {
    to: input.to,
    subject: `Confirm your subscription to the ${input.shopName} newsletter`,
    text: text.join('\n'),
  };
}
