import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { VatCheckResult, VatValidationService } from '../../commerce/tax/vat-validation.service';
import { countryName } from '../../common/countries';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { JsonAnswer } from '../../web/answers/answers';
import { ValidateVatDto } from './dto/validate-vat.dto';
import { VatCheckEnabledGuard } from './vat-check-enabled.guard';

/** Checks per minute and IP: a checkout needs a handful; more would only spend the EU service's patience. */
export const VAT_CHECK_LIMIT = 120;

const UNAVAILABLE = 'The EU VAT service is not available right now, please try again later.';

@ApiTags('checkout')
@Controller('shop/checkout')
export class VatController {
  constructor(private readonly vat: VatValidationService) {}

  /** Checks a VAT id's format and its registration in the EU VAT service. */
  @Post('validate-vat')
  @HttpCode(200)
  @UseGuards(VatCheckEnabledGuard, ShopThrottlerGuard)
  @Throttle({ default: { limit: VAT_CHECK_LIMIT, ttl: 60_000 } })
  async validate(@Body() body: ValidateVatDto): Promise<JsonAnswer> {
    return answer(await this.vat.validate(body.vatId, body.country, { existence: true }), body.country);
  }
}

/**
 * The result body: `valid`, a message for the shopper, and the company's `name` and `address` when valid;
 * 502 while the EU service cannot answer.
 */
function answer(result: VatCheckResult, country: string): JsonAnswer {
  const { vatId } = result;
  const invalid = (message: string) => new JsonAnswer(200, { success: true, valid: false, message, vatId });
  switch (result.status) {
    case 'valid':
      return new JsonAnswer(200, {
        success: true,
        valid: true,
        message: null,
        vatId,
        name: result.name,
        address: result.address,
      });
    case 'invalid_format':
      return invalid('Invalid VAT ID format.');
    case 'not_registered':
      return invalid('Invalid VAT ID: not registered in the EU VAT system.');
    case 'country_mismatch':
      return invalid(`This VAT ID is not from ${countryName(country)}.`);
    case 'not_eu':
      return invalid('VAT IDs can only be checked for EU countries.');
    case 'unavailable':
      // The result body plus the error object every failed JSON answer carries (docs/http-contract.md).
      return new JsonAnswer(502, {
        success: false,
        valid: false,
        message: UNAVAILABLE,
        error: { code: 'vat_service_unavailable', message: UNAVAILABLE },
      });
  }
}
