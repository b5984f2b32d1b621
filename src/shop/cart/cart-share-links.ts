import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';

/** The address a cart share token opens. */
@Injectable()
export class CartShareLinks {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  url(token: string): string {
    return `${this.config.baseUrl}/shop/cart/share/${token}`;
  }
}
