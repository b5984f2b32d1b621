import { Module } from '@nestjs/common';
import { ViesSandboxController } from './vies/vies-sandbox.controller';

/**
 * Local stand-ins for the outside services (DESIGN.md §7), mounted under /_sandbox when not in production.
 * Only the bootstrap and tests import this folder.
 */
@Module({
  controllers: [ViesSandboxController],
})
export class SandboxModule {}
