import { Global, Module } from '@nestjs/common';
import { SessionAndAddressAllowance } from '../common/throttling/session-and-address';
import { MailService } from './mail.service';
import { MailTemplates } from './mail-templates';
import { ShareMails } from './share-mails';

@Global()
@Module({
  providers: [MailService, MailTemplates, ShareMails, SessionAndAddressAllowance],
  exports: [MailService, MailTemplates, ShareMails],
})
export class MailModule {}
