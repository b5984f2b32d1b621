import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../../commerce/admin.module';
import { CpCategoriesController } from './cp-categories.controller';

/** CP category tree screens, mounted under `/{CP_TRIGGER}/categories`; they need the `accessProducts` permission. */
@Module({ imports: [CommerceAdminModule], controllers: [CpCategoriesController] })
export class CpCategoriesModule {}
