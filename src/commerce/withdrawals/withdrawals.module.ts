import { Module } from '@nestjs/common';
import { ReturnsModule } from '../returns/returns.module';
import { WithdrawalService } from './withdrawal.service';

/** Withdrawals (docs/shop.md, _Withdrawal_): imported by the shop's withdrawal pages and the CP. */
@Module({ imports: [ReturnsModule], providers: [WithdrawalService], exports: [WithdrawalService] })
export class WithdrawalsModule {}
