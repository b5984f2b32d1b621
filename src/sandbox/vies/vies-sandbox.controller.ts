import { randomBytes } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { EU_COUNTRIES } from '../../common/countries';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { JsonAnswer } from '../../web/answers/answers';
import { answerSlowly, EmptyAnswer, SandboxAnswerFilter } from '../common/sandbox-answers';

/** VIES country codes: the EU's, with Greece as EL, plus XI for Northern Ireland. */
const PREFIXES = new Set([...EU_COUNTRIES.map((code) => (code === 'GR' ? 'EL' : code)), 'XI']);
const VAT_NUMBER = /^[0-9A-Z+*]{2,12}$/;

interface ViesRequest {
  countryCode?: unknown;
  vatNumber?: unknown;
  requesterMemberStateCode?: unknown;
  requesterNumber?: unknown;
}

/**
 * The EU VAT service (VIES REST `check-vat-number`, docs/shop.md). The number's last three digits
 * pick the outcome, so tests and a shop owner trying the demo can provoke each one:
 * `000` not registered, `999` MS_UNAVAILABLE, `998` HTTP 503, `997` answers after 6 s, `996` an HTML page;
 * anything else is registered. A check naming a requester (the shop's own VAT id) gets a consultation number.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller('_sandbox/vies')
export class ViesSandboxController {
  @Post('check-vat-number')
  @HttpCode(200)
  async check(@Body() body: ViesRequest | undefined, @Req() req: Request): Promise<object | string> {
    const { countryCode, vatNumber, requesterMemberStateCode, requesterNumber } = body ?? {};
    if (
      typeof countryCode !== 'string' ||
      !PREFIXES.has(countryCode) ||
      typeof vatNumber !== 'string' ||
      !VAT_NUMBER.test(vatNumber)
    ) {
      return new JsonAnswer(400, failure('INVALID_INPUT'));
    }
    const registered = {
      countryCode,
      vatNumber,
      requestDate: new Date().toISOString(),
      valid: true,
      name: `SANDBOX COMPANY ${countryCode}${vatNumber}`,
      address: 'Main Street 1, 811 01 Bratislava',
      requestIdentifier:
        typeof requesterMemberStateCode === 'string' && typeof requesterNumber === 'string'
          ? `WAPIAAAA${randomBytes(6).toString('hex').toUpperCase()}`
          : '',
    };
    switch (vatNumber.slice(-3)) {
      case '000':
        return { ...registered, valid: false, name: '---', address: '---' };
      case '999':
        return failure('MS_UNAVAILABLE');
      case '998':
        throw new EmptyAnswer(503);
      case '997':
        await answerSlowly(req);
        return registered;
      case '996':
        // A string is sent as text/html.
        return '<!doctype html><html><body><h1>Service temporarily unavailable</h1></body></html>';
      default:
        return registered;
    }
  }
}

function failure(error: string) {
  return { actionSucceed: false, errorWrappers: [{ error }] };
}
