import { SetMetadata } from '@nestjs/common';

export const SKIP_CSRF = 'skipCsrf';

/** For callers that are not our pages: the gateway return, the flow webhook (docs/http-contract.md). */
export const SkipCsrf = () => SetMetadata(SKIP_CSRF, true);
