import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { RefundService } from '../../commerce/refunds/refund.service';
import { RETURN_STATUSES, returnLifecycle, ReturnStatus } from '../../commerce/returns/return-lifecycle';
import { NEWEST_RETURNS_FIRST, RETURN_SORTS, ReturnService } from '../../commerce/returns/return.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { CpConfirmationDto, requireConfirmation } from '../../common/cp-confirmation';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { refundDone, RefundFormDto, refundRequest, TICKED } from '../refund-form';

class ReturnListQuery extends CpListQuery {
  @IsOptional()
  @IsIn(RETURN_STATUSES)
  status?: ReturnStatus;
}

/** What staff tell the customer with an approval (how to send the goods) or a refusal (why). */
class ApproveDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  message?: string;
}

/** Refusing is final for the customer: it asks "I am sure". */
class RefuseDto extends CpConfirmationDto {
  @IsString({ message: 'tell the customer why' })
  @IsNotEmpty({ message: 'tell the customer why' })
  @MaxLength(1000)
  message: string;
}

/**
 * Return requests in the CP (docs/shop.md, _Returns_), behind the orders permission: the list, a return's page with
 * its history, approve or refuse, mark received, and the refund form prefilled with the returned lines.
 */
@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('returns')
export class CpReturnsController {
  constructor(
    private readonly returns: ReturnService,
    private readonly refunds: RefundService,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: ReturnListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const sort = query.sortBy(RETURN_SORTS, NEWEST_RETURNS_FIRST);
    const result = await this.returns.list({ status: query.status, page, sort });
    return new PageView('cp/returns', {
      layout: 'cp',
      title: 'Returns',
      ...result,
      page,
      filter: query,
      statuses: RETURN_STATUSES,
    });
  }

  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const { ret, order, lines, history } = await this.returns.detail(id);
    const next = returnLifecycle.next(ret.status);
    return new PageView('cp/return', {
      layout: 'cp',
      title: `Return ${ret.id}`,
      ret,
      order,
      lines,
      history,
      canApprove: next.includes('approved'),
      canRefuse: next.includes('refused'),
      canReceive: next.includes('received'),
      // The refund form, restocking ticked; the return itself makes a repeated post the same refund.
      refund: next.includes('refunded') ? { reason: `Return ${ret.id}: ${ret.reason}` } : null,
    });
  }

  @Post(':id/approve')
  @HttpCode(200)
  @RefusedGoesTo('returns/:id')
  async approve(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ApproveDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    return this.moved(id, await this.returns.approve(id, body.message, `cp:${req.cpStaff!.email}`), 'approved');
  }

  @Post(':id/refuse')
  @HttpCode(200)
  @RefusedGoesTo('returns/:id')
  async refuse(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: RefuseDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    requireConfirmation(body, 'Refusing the return');
    return this.moved(id, await this.returns.refuse(id, body.message, `cp:${req.cpStaff!.email}`), 'refused');
  }

  @Post(':id/receive')
  @HttpCode(200)
  @RefusedGoesTo('returns/:id')
  async receive(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    return this.moved(id, await this.returns.receive(id, `cp:${req.cpStaff!.email}`), 'received');
  }

  /**
   * Refunds a received return (its lines unless the form names fewer, restocked unless `restock` is `false`) and
   * marks it refunded. The return is the
   * refund's idempotency key: an `Idempotency-Key` or `idempotencyKey` sent is not used.
   */
  @Post(':id/refund')
  @HttpCode(200)
  @RefusedGoesTo('returns/:id')
  async refund(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: RefundFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const asked = refundRequest(body, `cp:${req.cpStaff!.email}`);
    // Returned goods go back to stock unless staff say no.
    const restock = body.restock === undefined || TICKED.includes(body.restock);
    const result = await this.returns.refund(id, { ...asked, restock });
    const { message, report } = await refundDone(result, this.refunds, this.currencies);
    return FormAnswer.done(message, this.page(id), { refund: report });
  }

  private moved(id: number, changed: boolean, status: ReturnStatus): FormAnswer {
    if (!changed) return FormAnswer.note('info', `The return was ${status} already.`, this.page(id));
    return FormAnswer.done(`Return ${status}.`, this.page(id), { returnId: id, status });
  }

  private page(id: number) {
    return { to: `/${this.config.cpTrigger}/returns/${id}` };
  }
}
