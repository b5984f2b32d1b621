import { EntityManager } from 'typeorm';
import { GiftCardDesign } from '../../commerce/gift-cards/gift-card-design.entity';
import { GiftCardProduct } from '../../commerce/gift-cards/gift-card-product.entity';
import { Product } from '../../commerce/products/product.entity';

/** The demo's gift card: a design, and DEMO-GIFT-CARD (25, 50 or 100) from the demo catalog selling it. */
export async function seedDemoGiftCards(manager: EntityManager): Promise<void> {
  const design = await manager.save(
    manager.create(GiftCardDesign, {
      name: 'Campfire',
      imagePath: '/public/images/gift-cards/gift-box.svg',
      backgroundColor: '#1f4e3d',
      textColor: '#ffffff',
    }),
  );
  const product = await manager.findOneByOrFail(Product, { sku: 'DEMO-GIFT-CARD' });
  await manager.insert(GiftCardProduct, { productId: product.id, designId: design.id });
}
