import { Module } from '@nestjs/common';
import { WithdrawalsModule } from '../../commerce/withdrawals/withdrawals.module';
import { CpWithdrawalsController } from './cp-withdrawals.controller';

/** CP withdrawal screens, mounted under `/{CP_TRIGGER}/withdrawals`; they need the `accessOrders` permission. */
@Module({ imports: [WithdrawalsModule], controllers: [CpWithdrawalsController] })
export class CpWithdrawalsModule {}
