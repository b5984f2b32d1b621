import { Module } from '@nestjs/common';
import { BankpayPluginModule } from '../bankpay.module';
import { BankpayCpController } from './bankpay-cp.controller';
import { BankpayCpService } from './bankpay-cp.service';

/** The gateway's own CP pages (its settings sections), mounted under the CP trigger by the app module's router. */
@Module({
  imports: [BankpayPluginModule],
  controllers: [BankpayCpController],
  providers: [BankpayCpService],
})
export class BankpayCpModule {}
