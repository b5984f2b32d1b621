import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Req, Res } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { addressJson, AddressBookService, addressNotFound } from '../../../commerce/customers/address-book.service';
import { StoreService } from '../../../commerce/stores/store.service';
import { countryOptions } from '../../../common/countries';
import { FormAnswer } from '../../../web/answers/answers';
import { pageLanguage, t } from '../../../web/i18n/page-language';
import { apiText } from '../ui-message';
import { addressView } from './address-view';
import { SaveAddressDto } from './dto/address.dto';

const ADDRESS_BOOK = '/shop/account/address-book';

/** A path id that is not a number names no address: the same 404 as someone else's. */
const addressId = new ParseIntPipe({
  exceptionFactory: addressNotFound,
});

/** The address book pages and their form posts (spec "Customer and authentication"). */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account/address-book')
export class AddressBookController {
  constructor(
    private readonly addresses: AddressBookService,
    private readonly stores: StoreService,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const addresses = await this.addresses.list(req.customer!.id);
    res.render('shop/account/address-book', {
      title: t(res, 'account.addresses.title'),
      csrf: true,
      addresses: addresses.map(addressView),
    });
  }

  @Get('new')
  async newForm(@Req() req: Request, @Res() res: Response): Promise<void> {
    const customer = req.customer!;
    const store = await this.stores.default();
    this.form(res, t(res, 'account.addresses.new'), {
      firstName: customer.firstName,
      lastName: customer.lastName,
      country: store.country,
    });
  }

  @Get(':id')
  async editForm(@Param('id', addressId) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.form(res, t(res, 'account.addresses.edit'), addressJson(await this.addresses.own(req.customer!.id, id)));
  }

  @Post('save')
  @HttpCode(200)
  async save(@Body() body: SaveAddressDto, @Req() req: Request): Promise<FormAnswer> {
    const address = await this.addresses.save(req.customer!.id, body);
    const message = { key: 'account.addresses.saved' };
    return new FormAnswer(message, { to: ADDRESS_BOOK }, () => ({
      success: true,
      message: apiText(message),
      address: addressJson(address),
    }));
  }

  @Post('delete/:id')
  @HttpCode(200)
  async delete(@Param('id', addressId) id: number, @Req() req: Request): Promise<FormAnswer> {
    await this.addresses.delete(req.customer!.id, id);
    const message = { key: 'account.addresses.deleted' };
    return new FormAnswer(message, { to: ADDRESS_BOOK }, () => ({ success: true, message: apiText(message) }));
  }

  private form(res: Response, title: string, address: Partial<ReturnType<typeof addressJson>>): void {
    res.render('shop/account/address-form', {
      title,
      csrf: true,
      address,
      countries: countryOptions(pageLanguage(res)).map((country) => ({
        ...country,
        selected: country.code === address.country,
      })),
    });
  }
}
