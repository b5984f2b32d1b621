import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { InjectRedis, RedisClient } from '../redis/redis.module';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRedis() private readonly redis: RedisClient,
  ) {}

  /** `{ status, db, redis }`; 503 when a dependency is down, so a load balancer takes the instance out. */
  @Get()
  @ApiOkResponse({ description: '{ status: "ok", db: "ok", redis: "ok" | "off" }' })
  async check(@Res() res: Response): Promise<void> {
    const db = await this.dataSource
      .query('SELECT 1')
      .then(() => 'ok')
      .catch(() => 'down');
    const redis = !this.redis
      ? 'off'
      : await this.redis
          .ping()
          .then(() => 'ok')
          .catch(() => 'down');
    const healthy = db === 'ok' && redis !== 'down';
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'down', db, redis });
  }
}
