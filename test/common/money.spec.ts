import { convertMinor, roundHalfUp, toMajor, toMinor } from '../../src/common/money';

describe('money', () => {
  it('rounds half away from zero without binary noise', () => {
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(roundHalfUp(2.675, 2)).toBe(2.68);
    expect(roundHalfUp(-1.005, 2)).toBe(-1.01);
    expect(roundHalfUp(0.5)).toBe(1);
    expect(roundHalfUp(1.4999)).toBe(1);
  });

  it('converts between major and minor units per currency decimals', () => {
    expect(toMinor(12.5)).toBe(1250);
    expect(toMinor(19.99)).toBe(1999);
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(toMinor(395.5, 0)).toBe(396);
    expect(toMajor(1999)).toBe(19.99);
    expect(toMajor(396, 0)).toBe(396);
  });

  it('converts between currencies with one rounding', () => {
    const eur = { rate: 1, decimals: 2 };
    expect(convertMinor(1999, eur, { rate: 25.3, decimals: 2 })).toBe(50575);
    expect(convertMinor(1999, eur, { rate: 395, decimals: 0 })).toBe(7896);
    expect(convertMinor(50575, { rate: 25.3, decimals: 2 }, eur)).toBe(1999);
  });
});
