import { MailMessage } from '../../mail/mail.service';

/**
 * To the owner of an address, once their social login took over the unconfirmed account registered with it:
 * what changed, and how to get a password of their own.
 */
export function accountClaimedMail(input: {
  to: string;
  shopName: string;
  provider: string;
  /** The forgotten-password page. */
  passwordResetUrl: string;
}): MailMessage {
  const text = [
    'Hello,',
    '',
    `you have just logged in at ${input.shopName} with ${input.provider}, which vouches that this e-mail address is yours.`,
    'An account with this address already existed, but the address had never been confirmed, so nothing showed that',
    'whoever set its password owns it.',
    '',
    `The account is now yours through ${input.provider}: the password it had no longer works, other logins linked`,
    'to it (Google, Facebook, Apple) were removed, and everyone who was logged in has been logged out. To log in',
    'with a password as well, choose a new one here:',
    input.passwordResetUrl,
    '',
    'If you did not create this account yourself, check the addresses saved in it before you order.',
  ];
  return {
    to: input.to,
    subject: `Your account at ${input.shopName} now logs in with ${input.provider}`,
    text: text.join('\n'),
  };
}
