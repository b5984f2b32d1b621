import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { CpConfirmationDto, requireConfirmation } from '../common/cp-confirmation';
import { DEMO_SKU_PREFIX, DemoRemoval } from '../commerce/stores/demo-removal.service';
import { StoreDetailsService, StoreDetailsValues } from '../commerce/stores/store-details.service';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { countryOptions } from '../common/countries';
import { AppError, FieldErrors } from '../common/errors/app-error';
import { cpActor, wantsHtml } from '../common/session-data';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { FormAnswer, PageView } from '../web/answers/answers';
import { RefusedGoesTo } from '../web/answers/refused-form.decorator';
import { translations } from '../web/i18n/translations';

/** The Store details form: every field optional (a JSON client may send only what changes), text up to 500. */
class StoreDetailsFormDto implements Partial<StoreDetailsValues> {
  @IsOptional() @IsString() @MaxLength(500) name?: string;
  @IsOptional() @IsString() @MaxLength(500) legalName?: string;
  @IsOptional() @IsString() @MaxLength(500) baseCurrency?: string;
  @IsOptional() @IsString() @MaxLength(500) country?: string;
  @IsOptional() @IsString() @MaxLength(500) language?: string;
  @IsOptional() @IsString() @MaxLength(500) timeZone?: string;
  @IsOptional() @IsString() @MaxLength(500) address?: string;
  @IsOptional() @IsString() @MaxLength(500) vatId?: string;
  @IsOptional() @IsString() @MaxLength(500) contactEmail?: string;
  @IsOptional() @IsString() @MaxLength(500) contactPhone?: string;
  @IsOptional() @IsString() @MaxLength(500) senderName?: string;
  @IsOptional() @IsString() @MaxLength(500) senderEmail?: string;
  @IsOptional() @IsString() @MaxLength(500) logoPath?: string;
}

/**
 * Store details in the CP (docs/shop.md, _Store details_), behind `accessSettings`: what makes the shop the owner's
 * (name, legal name, currency, country, language, time zone, contact, mail sender, logo), and removing the demo
 * after a confirmation page. A refused form comes back (400) with each field's problem beside it.
 */
@ApiExcludeController()
@CpPermission('accessSettings')
@Controller('store')
export class CpStoreController {
  constructor(
    private readonly details: StoreDetailsService,
    private readonly demo: DemoRemoval,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async form(): Promise<PageView> {
    return this.formView(await this.details.current());
  }

  @Post()
  @HttpCode(200)
  async save(@Body() body: StoreDetailsFormDto, @Req() req: Request): Promise<FormAnswer | PageView> {
    try {
      const { details, changed } = await this.details.save(body, cpActor(req));
      const page = { to: this.url('') };
      if (changed.length === 0)
        return new FormAnswer('Nothing changed.', page, () => ({ success: true, details }), 'info');
      return FormAnswer.done('Store details saved.', page, { details, changed });
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      const shown = { ...(await this.details.current()), ...body };
      return this.formView(shown, { errors: error.fields ?? {}, problem: error.message }, error.status);
    }
  }

  @Get('demo')
  async demoConfirm(@Req() req: Request): Promise<PageView> {
    return new PageView('cp/store-demo', {
      layout: 'cp',
      title: 'Remove the demo',
      contents: await this.demo.contents(req.cpStaff!.id),
      skuPrefix: DEMO_SKU_PREFIX,
    });
  }

  @Post('demo')
  @HttpCode(200)
  @RefusedGoesTo('store/demo')
  async removeDemo(@Req() req: Request, @Body() body: CpConfirmationDto): Promise<FormAnswer> {
    // It deletes every order and customer, and the demo admin: only an admin, from the confirmation page, box ticked.
    if (!req.cpStaff!.admin) {
      throw new AppError(
        'admin_only',
        'Only a CP admin can remove the demo: it deletes every order and customer.',
        403,
      );
    }
    requireConfirmation(body, 'Removing the demo');
    const removed = await this.demo.remove(cpActor(req), req.cpStaff!.id);
    const admin = removed.admin ? ` and CP user ${removed.admin}` : '';
    return FormAnswer.done(
      `Demo removed: ${removed.products} products, ${removed.orders} orders, ${removed.customers} customers${admin}.`,
      { to: this.url('') },
      { removed },
    );
  }

  private formView(
    values: Partial<StoreDetailsValues>,
    refused: { errors: FieldErrors; problem: string } = { errors: {}, problem: '' },
    status?: number,
  ): PageView {
    return new PageView(
      'cp/store',
      {
        layout: 'cp',
        title: 'Store details',
        values,
        ...refused,
        countries: countryOptions('en'),
        languages: translations().languages,
        timeZones: Intl.supportedValuesOf('timeZone'),
      },
      { status },
    );
  }

  private url(path: string): string {
    return `/${this.config.cpTrigger}/store${path ? `/${path}` : ''}`;
  }
}
