import { cpActor } from '../common/session-data';
import { Body, Controller, HttpCode, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { AddressKind, LineChanges, OrderEdits } from '../commerce/orders/order-edits.service';
import { AddressDto, trimmed } from '../common/address.dto';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { BrowserTarget, FormAnswer } from '../web/answers/answers';
import { RefusedGoesTo } from '../web/answers/refused-form.decorator';
import { parseCount } from './form-fields';

class ContactDto {
  @trimmed()
  @IsEmail({}, { message: 'must be an e-mail address' })
  @MaxLength(255)
  email: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @Matches(/^\+?[0-9 ()/-]{5,32}$/, { message: 'must be a phone number' })
  phone?: string;
}

class NoteDto {
  @trimmed()
  @IsString({ message: 'is required' })
  @Length(1, 2000)
  text: string;

  /** `customer`: shown on the customer's order pages too; `internal`: staff only. */
  @IsIn(['internal', 'customer'])
  visibility: 'internal' | 'customer';
}

class LinesDto {
  /**
   * `[{ id, qty }]`, a new quantity per order line (0 removes it). A form sends `lines[0][id]=12&lines[0][qty]=3`,
   * which the body parser makes a list (an object keyed by position past 20 entries: both are read).
   */
  @IsOptional()
  lines?: unknown;

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(64)
  addSku?: string;

  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  addQty?: unknown;
}

/** Staff edits of a placed order, posted from its CP page; the rules are OrderEdits'. */
@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('orders/:id/edit')
export class CpOrderEditsController {
  constructor(
    private readonly edits: OrderEdits,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Post('address/:kind')
  @HttpCode(200)
  @RefusedGoesTo('orders/:id')
  async address(
    @Param('id', ParseIntPipe) id: number,
    @Param('kind') kind: string,
    @Body() body: AddressDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    if (kind !== 'billing' && kind !== 'shipping') throw AppError.notFound('No such address');
    const changed = await this.edits.changeAddress(id, kind as AddressKind, body, cpActor(req));
    return this.answer(id, changed, `${kind === 'billing' ? 'Billing' : 'Shipping'} address saved.`);
  }

  @Post('contact')
  @HttpCode(200)
  @RefusedGoesTo('orders/:id')
  async contact(@Param('id', ParseIntPipe) id: number, @Body() body: ContactDto, @Req() req: Request) {
    const changed = await this.edits.changeContact(id, { email: body.email, phone: body.phone ?? null }, cpActor(req));
    return this.answer(id, changed, 'Contact saved.');
  }

  @Post('note')
  @HttpCode(200)
  @RefusedGoesTo('orders/:id')
  async note(@Param('id', ParseIntPipe) id: number, @Body() body: NoteDto, @Req() req: Request) {
    await this.edits.addNote(id, body.text, body.visibility === 'customer', cpActor(req));
    const told = body.visibility === 'customer' ? 'Note added; the customer sees it.' : 'Internal note added.';
    return this.answer(id, true, told);
  }

  @Post('lines')
  @HttpCode(200)
  @RefusedGoesTo('orders/:id')
  async lines(@Param('id', ParseIntPipe) id: number, @Body() body: LinesDto, @Req() req: Request) {
    const changed = await this.edits.changeLines(id, lineChanges(body), cpActor(req));
    return this.answer(id, changed, 'Lines saved; totals, stock and payment updated.');
  }

  private answer(id: number, changed: boolean, message: string): FormAnswer {
    const page: BrowserTarget = { to: `/${this.config.cpTrigger}/orders/${id}` };
    if (!changed) return new FormAnswer('Nothing changed.', page, () => ({ success: true, changed }), 'info');
    return FormAnswer.done(message, page, { changed });
  }
}

/** The form's quantities and added product, each a whole number (400 naming the field otherwise). */
function lineChanges(body: LinesDto): LineChanges {
  const fields: Record<string, string[]> = {};
  const quantities: Record<number, number> = {};
  const lines = body.lines ?? [];
  if (typeof lines !== 'object' || lines === null) fields.lines = ['must be a list of { id, qty }'];
  else {
    for (const [position, entry] of Object.entries(lines)) {
      const { id, qty } = (entry ?? {}) as { id?: unknown; qty?: unknown };
      const lineId = parseCount(id);
      const count = parseCount(qty);
      if (lineId === null) fields[`lines[${position}][id]`] = ['must be an order line id'];
      else if (count === null) fields[`lines[${position}][qty]`] = ['must be a whole number ≥ 0'];
      else quantities[lineId] = count;
    }
  }
  let add: LineChanges['add'];
  if (body.addSku) {
    const qty = body.addQty === undefined ? 1 : parseCount(body.addQty);
    if (!qty) fields.addQty = ['must be a whole number ≥ 1'];
    else add = { sku: body.addSku, qty };
  }
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);
  return { quantities, add };
}
