import { SetMetadata } from '@nestjs/common';

export const SKIP_CSRF = 'skipCsrf';

/** For callers that are not our pages: the gateway return, the flow webhook (DESIGN.md §4). */
export const SkipCsrf = () => SetMetadata(SKIP_CSRF, true);
