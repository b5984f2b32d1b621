/** A card applied to a cart that can pay for it now, with what it holds (minor units of the cart currency). */
export interface GiftCardBalance {
  id: number;
  code: string;
  balance: number;
}

/** What one card pays of an order. */
export interface GiftCardCover {
  id: number;
  code: string;
  amount: number;
}

/** The cards pay in the order they were applied, each up to its balance, together never more than `total`. */
export function coverWithGiftCards(cards: GiftCardBalance[], total: number): GiftCardCover[] {
  let left = Math.max(0, total);
  return cards.map((card) => {
    const amount = Math.min(card.balance, left);
    left -= amount;
    return { id: card.id, code: card.code, amount };
  });
}
