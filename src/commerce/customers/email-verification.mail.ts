import { MailMessage } from '../../mail/mail.service';

/** Why the address gets a link: a new account, or an account whose address was changed to it. */
export type VerificationReason = 'registered' | 'changed';

/**
 * The e-mail with the link that confirms an account's address. Anyone can register any address, so it carries
 * nothing the registrant typed (no name): only our text and our links.
 */
export function emailVerificationMail(input: {
  to: string;
  shopName: string;
  reason: VerificationReason;
  /** The `verify-email?token=…` link. */
  link: string;
  /** The forgotten-password page, for whoever did not ask for the account. */
  passwordResetUrl: string;
  linkDays: number;
}): MailMessage {
  const text = [
    'Hello,',
    '',
    input.reason === 'registered'
      ? `an account at ${input.shopName} was just registered with this e-mail address. If that was you, confirm that the address is yours:`
      : `the e-mail address of an account at ${input.shopName} was just changed to this one. If that was you, confirm that the address is yours:`,
    input.link,
    '',
    `The link works for ${input.linkDays} days. Until the address is confirmed, a login with Google, Facebook or Apple`,
    'that proves this address takes the account over, and its password stops working.',
    '',
    'If it was not you, someone else gave your address. You can ignore this e-mail, or take the account over by',
    `choosing a password of your own: ${input.passwordResetUrl}`,
  ];
  return { to: input.to, subject: `Confirm your e-mail address at ${input.shopName}`, text: text.join('\n') };
}
