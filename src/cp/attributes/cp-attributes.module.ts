import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CpAttributesController } from './cp-attributes.controller';

/** CP product attributes, mounted under `/{CP_TRIGGER}/attributes`; they need the `accessProducts` permission. */
@Module({ imports: [CommerceAdminModule], controllers: [CpAttributesController] })
export class CpAttributesModule {}
