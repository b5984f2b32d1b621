import { Get, HttpCode, Post } from '@nestjs/common';

/** What every sandbox keeps: counters of the calls it answered, and a way back to its starting state. */
export interface SandboxWithStats {
  currentStats(): unknown;
  reset(): void;
}

/** `GET _control/stats` and `POST _control/reset`, shared by the sandboxes' control controllers. */
export abstract class SandboxControlController {
  protected constructor(private readonly sandbox: SandboxWithStats) {}

  @Get('stats')
  stats() {
    return this.sandbox.currentStats();
  }

  @Post('reset')
  @HttpCode(200)
  reset() {
    this.sandbox.reset();
    return {};
  }
}
