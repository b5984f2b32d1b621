import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Req } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { addressJson, AddressBookService, addressNotFound } from '../../../commerce/customers/address-book.service';
import { StoreService } from '../../../commerce/stores/store.service';
import { countryOptions } from '../../../common/countries';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { changeDone } from '../translated-answers';
import { addressView } from './address-view';
import { SaveAddressDto } from './dto/address.dto';

const ADDRESS_BOOK = '/shop/account/address-book';

/** A path id that is not a number names no address: the same 404 as someone else's. */
const addressId = new ParseIntPipe({
  exceptionFactory: addressNotFound,
});

/** The address book pages and their form posts. */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account/address-book')
export class AddressBookController {
  constructor(
    private readonly addresses: AddressBookService,
    private readonly stores: StoreService,
  ) {}

  @Get()
  async list(@Req() req: Request, @PageText() text: PageTextFn): Promise<PageView> {
    const addresses = await this.addresses.list(req.customer!.id);
    return new PageView('shop/account/address-book', {
      title: text('account.addresses.title'),
      csrf: true,
      addresses: addresses.map(addressView),
    });
  }

  @Get('new')
  async newForm(
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView> {
    const customer = req.customer!;
    const store = await this.stores.default();
    return addressForm(text('account.addresses.new'), language, {
      firstName: customer.firstName,
      lastName: customer.lastName,
      country: store.country,
    });
  }

  @Get(':id')
  async editForm(
    @Param('id', addressId) id: number,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView> {
    const address = addressJson(await this.addresses.own(req.customer!.id, id));
    return addressForm(text('account.addresses.edit'), language, address);
  }

  @Post('save')
  @HttpCode(200)
  async save(@Body() body: SaveAddressDto, @Req() req: Request): Promise<FormAnswer> {
    const address = await this.addresses.save(req.customer!.id, body);
    return changeDone({ key: 'account.addresses.saved' }, { to: ADDRESS_BOOK }, { address: addressJson(address) });
  }

  @Post('delete/:id')
  @HttpCode(200)
  async delete(@Param('id', addressId) id: number, @Req() req: Request): Promise<FormAnswer> {
    await this.addresses.delete(req.customer!.id, id);
    return changeDone({ key: 'account.addresses.deleted' }, { to: ADDRESS_BOOK });
  }
}

/** The form for a new or an existing address; countries are named in the page's language. */
function addressForm(title: string, language: string, address: Partial<ReturnType<typeof addressJson>>): PageView {
  return new PageView('shop/account/address-form', {
    title,
    csrf: true,
    address,
    countries: countryOptions(language).map((country) => ({ ...country, selected: country.code === address.country })),
  });
}
