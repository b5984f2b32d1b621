import { AppError } from '../../common/errors/app-error';

/** A license that cannot be activated or changed as asked; the message says why and what to do. */
export class LicenseRefused extends AppError {
  constructor(message: string) {
    super('license_refused', message, 400);
  }
}

/** The license server gave no token for a purchase code: refused, unreachable, or unreadable. */
export class LicenseServerFailed extends AppError {
  constructor(message: string) {
    super('license_server_failed', message, 502);
  }
}
