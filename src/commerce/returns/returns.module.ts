import { Module } from '@nestjs/common';
import { ReturnMails } from './return-mails';
import { ReturnService } from './return.service';

/** Returns (docs/shop.md, _Returns_): imported by the account pages, the guest order page and the CP. */
@Module({ providers: [ReturnService, ReturnMails], exports: [ReturnService] })
export class ReturnsModule {}
