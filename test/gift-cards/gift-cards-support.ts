import { GiftCardIssuer, StaffGiftCard } from '../../src/commerce/gift-cards/gift-card-issuer.service';
import { GiftCard } from '../../src/commerce/gift-cards/gift-card.entity';
import { AJAX } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { TestApp } from '../support/test-app';

export const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{16}$/;
export const ITEM_DETAILS = '/shop/marketing/gift-cards/item-details';

/** A card issued by staff (amount in major units), as the CP and the CLI do it. */
export function issueCard(shop: TestApp, amount: number, extra: Partial<StaffGiftCard> = {}): Promise<GiftCard> {
  return shop.app.get(GiftCardIssuer).issueByStaff({ amount, issuedBy: 'test', ...extra });
}

export function reloadCard(shop: TestApp, id: number): Promise<GiftCard> {
  return shop.dataSource.getRepository(GiftCard).findOneByOrFail({ id });
}

/** apply-gift-card as the checkout script sends it; `ip` keeps throttling counts apart between tests. */
export async function applyGiftCard(client: ShopClient, code: string, ip = '198.51.100.1') {
  const token = await client.csrfToken();
  return client.agent
    .post('/shop/cart/apply-gift-card')
    .set('X-CSRF-Token', token)
    .set('X-Forwarded-For', ip)
    .set(AJAX)
    .send({ code });
}

/** `ABCD-EFGH-JKMN-PQRS` */
export function grouped(code: string): string {
  return code.match(/.{4}/g)!.join('-');
}
