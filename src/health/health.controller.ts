import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { InjectRedis, RedisClient } from '../redis/redis.module';
import { JsonAnswer } from '../web/answers/answers';

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
  async check(): Promise<JsonAnswer> {
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
    return new JsonAnswer(healthy ? 200 : 503, { status: healthy ? 'ok' : 'down', db, redis });
  }
}
