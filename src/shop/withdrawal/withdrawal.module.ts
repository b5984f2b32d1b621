import { Module } from '@nestjs/common';
import { WithdrawalsModule } from '../../commerce/withdrawals/withdrawals.module';
import { WithdrawalController } from './withdrawal.controller';

/** The shopper's withdrawal pages (`/shop/withdrawal`, `/shop/order/withdraw/*`). */
@Module({ imports: [WithdrawalsModule], controllers: [WithdrawalController] })
export class WithdrawalModule {}
