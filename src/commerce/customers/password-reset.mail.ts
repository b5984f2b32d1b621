import { MailMessage } from '../../mail/mail.service';

interface ResetMailInput {
  to: string;
  firstName: string;
  shopName: string;
  /** The `create-new-password?token=…` link. */
  link: string;
  code: string;
  /** A code sent again with `resend-otp`: the earlier one has stopped working. */
  resent: boolean;
  codeMinutes: number;
  linkMinutes: number;
}

/** The reset e-mail: the link to the new-password form and the one-time code that unlocks it. */
export function passwordResetMail(input: ResetMailInput): MailMessage {
  const text = [
    `Hello ${input.firstName},`,
    '',
    input.resent
      ? `here is a new code to reset the password of your account at ${input.shopName}. Earlier codes no longer work.`
      : `someone (hopefully you) asked to reset the password of your account at ${input.shopName}.`,
    '',
    `Your one-time code: ${input.code}`,
    `It is valid for ${input.codeMinutes} minutes and works once.`,
    '',
    `Enter it after opening this link, which works for another ${input.linkMinutes} minutes:`,
    input.link,
    '',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  return {
    to: input.to,
    subject: input.resent ? `Your new code for ${input.shopName}` : `Reset your password at ${input.shopName}`,
    text: text.join('\n'),
  };
}
