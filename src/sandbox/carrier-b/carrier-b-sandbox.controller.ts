import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { JsonAnswer } from '../../web/answers/answers';
import { CARRIER_B_LIBRARY_JS } from './carrier-b-library';
import { widgetPoints } from './carrier-b-points';

/** One value of a query parameter split at commas, trimmed, without empties. */
function list(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : [];
}

/**
 * Carrier B's pickup-point widget (docs/integrations.md) at `{widget_url}` = `/_sandbox/carrier-b`: the v6
 * library script and the points it lists. Any non-empty API key is accepted, as a real widget would accept
 * the shop's key.
 */
@ApiExcludeController()
@Controller('_sandbox/carrier-b/v6')
export class CarrierBSandboxController {
  @Get('www/js/library.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  library(): string {
    return CARRIER_B_LIBRARY_JS;
  }

  /** `?apiKey=&country=sk,cz&valueFormat=id,name` → `{ points }`; 401 `{ error }` without a key. */
  @Get('api/points')
  points(@Query() query: Record<string, unknown>) {
    if (typeof query.apiKey !== 'string' || query.apiKey.trim() === '') {
      return new JsonAnswer(401, { error: 'An API key is required.' });
    }
    const countries = list(query.country).map((code) => code.toLowerCase());
    return { points: widgetPoints(countries, list(query.valueFormat)) };
  }
}
