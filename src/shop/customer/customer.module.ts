import { Module } from '@nestjs/common';
import { CustomerSessionController } from './customer-session.controller';

/** Customer accounts. Account routes are gated by `customerAccountsEnabled`; the session routes are not. */
@Module({ controllers: [CustomerSessionController] })
export class CustomerModule {}
