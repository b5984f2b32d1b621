import { Module } from '@nestjs/common';
import { CpAuditController } from './cp-audit.controller';

/** The audit log screen, `/{CP_TRIGGER}/audit`, behind `accessAudit`. */
@Module({ controllers: [CpAuditController] })
export class CpAuditModule {}
