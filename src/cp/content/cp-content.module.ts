import { Module } from '@nestjs/common';
import { CpContentPagesController } from './cp-content-pages.controller';

/** CP content pages, mounted under `/{CP_TRIGGER}/content-pages`; they need the `accessContent` permission. */
@Module({ controllers: [CpContentPagesController] })
export class CpContentModule {}
