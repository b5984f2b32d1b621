import { Global, Module } from '@nestjs/common';
import { SessionAndAddressAllowance } from '../common/throttling/session-and-address';
import { MailService } from './mail.service';
import { ShareMails } from './share-mails';

@Global()
@Module({ providers: [MailService, ShareMails, SessionAndAddressAllowance], exports: [MailService, ShareMails] })
export class MailModule {}
