import { Module } from '@nestjs/common';
import { CpReportsController } from './cp-reports.controller';

/** CP tax reports, mounted under `/{CP_TRIGGER}/reports`; they need the `accessReports` permission. */
@Module({ controllers: [CpReportsController] })
export class CpReportsModule {}
