import { randomBytes } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { EU_COUNTRIES } from '../../common/countries';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { SANDBOX_SLOW_MS } from '../common/sandbox-answers';

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
@Controller('_sandbox/vies')
export class ViesSandboxController {
  @Post('check-vat-number')
  @HttpCode(200)
  check(@Body() body: ViesRequest | undefined, @Req() req: Request, @Res() res: Response): void {
    const { countryCode, vatNumber, requesterMemberStateCode, requesterNumber } = body ?? {};
    if (
      typeof countryCode !== 'string' ||
      !PREFIXES.has(countryCode) ||
      typeof vatNumber !== 'string' ||
      !VAT_NUMBER.test(vatNumber)
    ) {
      res.status(400).json(failure('INVALID_INPUT'));
      return;
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
        res.json({ ...registered, valid: false, name: '---', address: '---' });
        return;
      case '999':
        res.json(failure('MS_UNAVAILABLE'));
        return;
      case '998':
        res.status(503).end();
        return;
      case '997':
        setTimeout(() => {
          if (!req.socket.destroyed) res.json(registered);
        }, SANDBOX_SLOW_MS).unref();
        return;
      case '996':
        res.type('html').send('<!doctype html><html><body><h1>Service temporarily unavailable</h1></body></html>');
        return;
      default:
        res.json(registered);
    }
  }
}

function failure(error: string) {
  return { actionSucceed: false, errorWrappers: [{ error }] };
}
