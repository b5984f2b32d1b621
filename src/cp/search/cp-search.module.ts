import { Module } from '@nestjs/common';
import { CatalogReadModule } from '../../commerce/catalog/catalog.module';
import { CpSearchController } from './cp-search.controller';

/** CP search screens (synonyms, searches without results), under `/{CP_TRIGGER}/search`; `accessProducts`. */
@Module({
  imports: [CatalogReadModule],
  controllers: [CpSearchController],
})
export class CpSearchModule {}
