import { Module } from '@nestjs/common';
import { LicenseService } from './license.service';
import { LicenseServerClient } from './license-server.client';

/** Plugin licenses: offline token verification, the license server client and the stored licenses. */
@Module({
  providers: [LicenseService, LicenseServerClient],
  exports: [LicenseService],
})
export class LicensesModule {}
