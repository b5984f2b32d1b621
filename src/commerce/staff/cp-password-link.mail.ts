import { MailMessage } from '../../mail/mail.service';
import type { CpPasswordLinkPurpose } from './cp-password-link.entity';

interface CpPasswordLinkMailInput {
  to: string;
  name: string;
  shopName: string;
  purpose: CpPasswordLinkPurpose;
  /** The `/{CP_TRIGGER}/set-password/<token>` link. */
  link: string;
  validHours: number;
}

/** The invitation to the control panel, or the note that an admin reset the password: both carry the link. */
export function cpPasswordLinkMail(input: CpPasswordLinkMailInput): MailMessage {
  const invite = input.purpose === 'invite';
  const validity =
    input.validHours % 24 === 0
      ? `${input.validHours / 24} day${input.validHours === 24 ? '' : 's'}`
      : `${input.validHours} hours`;
  const text = [
    `Hello ${input.name || input.to},`,
    '',
    invite
      ? `you have been invited to the control panel of ${input.shopName}. Choose your password here:`
      : `an admin reset your control-panel password at ${input.shopName}; the old one no longer works. Choose a new one here:`,
    input.link,
    '',
    `The link works once, within ${validity}. If it has expired, ask an admin to send a new one.`,
  ];
  return {
    to: input.to,
    subject: invite
      ? `Your invitation to the ${input.shopName} control panel`
      : `Choose a new control-panel password for ${input.shopName}`,
    text: text.join('\n'),
  };
}
