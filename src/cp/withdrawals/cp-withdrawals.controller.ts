import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request } from 'express';
import {
  NEWEST_WITHDRAWALS_FIRST,
  WITHDRAWAL_SORTS,
  WithdrawalService,
} from '../../commerce/withdrawals/withdrawal.service';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';

/** What staff tell the customer with the return they make (how to send the goods back). */
class ToReturnDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  message?: string;
}

/**
 * Withdrawals in the CP (docs/shop.md, _Withdrawal_), behind the orders permission: the list and a withdrawal's
 * page with the period's end, and the one step that makes it an approved return, refunded from there as any return.
 */
@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('withdrawals')
export class CpWithdrawalsController {
  constructor(
    private readonly withdrawals: WithdrawalService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: CpListQuery): Promise<PageView> {
    const page = query.pageNumber;
    return new PageView('cp/withdrawals', {
      layout: 'cp',
      title: 'Withdrawals',
      ...(await this.withdrawals.list(page, query.sortBy(WITHDRAWAL_SORTS, NEWEST_WITHDRAWALS_FIRST))),
      page,
    });
  }

  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const { withdrawal, order, lines, lastDay } = await this.withdrawals.detail(id);
    return new PageView('cp/withdrawal', {
      layout: 'cp',
      title: `Withdrawal ${id}`,
      withdrawal,
      order,
      lines,
      lastDay,
    });
  }

  /** The approved return of the withdrawn lines, made once; staff go on to it to receive and refund. */
  @Post(':id/return')
  @HttpCode(200)
  @RefusedGoesTo('withdrawals/:id')
  async toReturn(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ToReturnDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const returnId = await this.withdrawals.toReturn(id, `cp:${req.cpStaff!.email}`, body.message?.trim() || null);
    return FormAnswer.done(
      `Return ${returnId} approved for withdrawal ${id}.`,
      { to: `/${this.config.cpTrigger}/returns/${returnId}` },
      { withdrawalId: id, returnId },
    );
  }
}
