import { Body, Controller, Get, HttpCode, Post, Query, Req, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { JsonAnswer, PageView } from '../../web/answers/answers';
import { answerSlowly, EmptyAnswer, GarbageAnswer, SandboxAnswerFilter } from '../common/sandbox-answers';
import { markup, sandboxPage } from '../common/sandbox-pages';
import { signLicense, testClaims } from './sandbox-license-signer';

const PLUGIN = /^[a-z0-9][a-z0-9-]{0,63}$/;
const CODE_SUFFIX = /^[A-Z0-9]{4,32}$/;
const REDEEMED_LICENSE_DAYS = 365;
const MAX_DAYS = 3650;

/**
 * A stand-in license server that signs test licenses with the sandbox test key. Purchase codes are
 * `TEST-<PLUGIN>-<SUFFIX>` (the plugin handle in capitals, e.g. `TEST-CARRIER-A-0001`, suffix 4–32 letters or
 * digits); the suffix picks the outcome, so every case can be tried: `EXPIRED` a license that ended yesterday,
 * `DOWN` HTTP 503, `GARBAGE` a body that is not JSON, `SLOW` an answer after 6 s, anything else a license for a
 * year. `GET issue` signs a token to paste.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller('_sandbox/licenses')
export class LicensesSandboxController {
  @Get()
  page(): PageView {
    return sandboxPage(HELP_PAGE);
  }

  /** `?plugin=carrier-a[&expiresInDays=N][&licensee=…]` → `{ token, claims }`. */
  @Get('issue')
  issue(@Query() query: Record<string, unknown>) {
    const { plugin, expiresInDays, licensee = 'Sandbox Shop' } = query;
    if (typeof plugin !== 'string' || !PLUGIN.test(plugin)) {
      return refusal(400, 'invalid_request', 'plugin: a plugin handle such as carrier-a');
    }
    const days = expiresInDays === undefined ? null : Number(expiresInDays);
    if (days !== null && !(Number.isInteger(days) && Math.abs(days) <= MAX_DAYS)) {
      return refusal(400, 'invalid_request', `expiresInDays: a whole number from -${MAX_DAYS} to ${MAX_DAYS}`);
    }
    if (typeof licensee !== 'string' || licensee.trim() === '' || licensee.length > 200) {
      return refusal(400, 'invalid_request', 'licensee: 1 to 200 characters');
    }
    const claims = testClaims(plugin, licensee.trim(), days);
    return { token: signLicense(claims), claims };
  }

  /** `{ code, plugin, domain }` → `{ token }`; an unknown code is a 404 `{ error, message }`. */
  @Post('v1/redeem')
  @HttpCode(200)
  async redeem(@Body() body: Record<string, unknown> | undefined, @Req() req: Request) {
    const { code, plugin, domain } = body ?? {};
    if (typeof plugin !== 'string' || !PLUGIN.test(plugin) || typeof code !== 'string') {
      return refusal(400, 'invalid_request', 'Send { code, plugin, domain } with a plugin handle such as carrier-a.');
    }
    const prefix = `TEST-${plugin.toUpperCase()}-`;
    const normalized = code.trim().toUpperCase();
    const suffix = normalized.slice(prefix.length);
    if (!normalized.startsWith(prefix) || !CODE_SUFFIX.test(suffix)) {
      return refusal(404, 'unknown_code', `No ${plugin} license has the code ${code.trim()}.`);
    }
    switch (suffix) {
      case 'DOWN':
        throw new EmptyAnswer(503);
      case 'GARBAGE':
        throw new GarbageAnswer('{"token": ');
      case 'SLOW':
        await answerSlowly(req);
    }
    const days = suffix === 'EXPIRED' ? -1 : REDEEMED_LICENSE_DAYS;
    return { token: signLicense(testClaims(plugin, licenseeFor(domain), days)) };
  }
}

function refusal(status: number, error: string, message: string): JsonAnswer {
  return new JsonAnswer(status, { error, message });
}

/** The shop's host name, as a real server would license the domain the code was redeemed from. */
function licenseeFor(domain: unknown): string {
  try {
    return `Sandbox licensee (${new URL(String(domain)).host})`;
  } catch {
    return 'Sandbox licensee';
  }
}

const HELP_PAGE = markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox license server</title>
</head>
<body>
<main>
<h1>Sandbox license server</h1>
<p>A local stand-in for the license server. It signs test licenses with a sandbox-only key that the shop
trusts only while sandboxes are on and no <code>LICENSE_PUBLIC_KEY</code> is set.</p>
<h2>Purchase codes</h2>
<p>Redeem <code>TEST-&lt;PLUGIN&gt;-&lt;SUFFIX&gt;</code> on a plugin's license page: the plugin handle in capitals
and 4 to 32 letters or digits, e.g. <code>TEST-CARRIER-A-0001</code> or <code>TEST-CARRIER-B-DEMO</code>.
The suffix picks the answer:</p>
<table>
<thead><tr><th>Suffix</th><th>Answer</th></tr></thead>
<tbody>
<tr><td><code>EXPIRED</code></td><td>a license that expired yesterday (the shop refuses it)</td></tr>
<tr><td><code>DOWN</code></td><td>HTTP 503</td></tr>
<tr><td><code>GARBAGE</code></td><td>a body that is not JSON</td></tr>
<tr><td><code>SLOW</code></td><td>a license after 6 s (longer than the shop waits)</td></tr>
<tr><td>anything else</td><td>a license valid for a year</td></tr>
</tbody>
</table>
<h2>Tokens to paste</h2>
<p><code>GET /_sandbox/licenses/issue?plugin=carrier-a</code> answers <code>{ token, claims }</code> with a license
that never expires; add <code>&amp;expiresInDays=30</code> (negative: already expired) and
<code>&amp;licensee=Your%20Shop</code> as needed.</p>
<ul>
<li><a href="/_sandbox/licenses/issue?plugin=carrier-a">A carrier A license</a></li>
<li><a href="/_sandbox/licenses/issue?plugin=carrier-b&amp;expiresInDays=30">A carrier B license for 30 days</a></li>
</ul>
</main>
</body>
</html>
`;
