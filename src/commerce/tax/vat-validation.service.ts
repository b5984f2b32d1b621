import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { EU_COUNTRIES } from '../../common/countries';
import { SettingsService } from '../../config/settings.service';
import { countryOfVatId, hasVatFormat, normaliseVatId, splitVatId, vatPrefixOf } from './vat-id';
import { ViesAnswer, ViesClient } from './vies.client';

/** A registration changes rarely; VIES itself is slow and rate-limited, so a day of reuse is safe. */
const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
/** While VIES is down, pricing does not ask again for this long (each try may wait out the timeout). */
const OUTAGE_MS = 60 * 1000;

export type VatCheckStatus =
  'valid' | 'invalid_format' | 'not_registered' | 'country_mismatch' | 'not_eu' | 'unavailable';

export interface VatCheckResult {
  status: VatCheckStatus;
  /** Normalised, with its VIES prefix when one could be told (`EL123456789`). */
  vatId: string;
  /** As registered in VIES; null when not asked, unknown or undisclosed. */
  name: string | null;
  address: string | null;
}

export interface VatCheckOptions {
  /** Also ask VIES whether the number is registered (`format_existence`). */
  existence: boolean;
}

type DefinitiveAnswer = Exclude<ViesAnswer, { status: 'unavailable' }>;

/** What allowed a reverse charge: the EU VAT service's consultation (its number when VIES gave one) and time. */
export interface ReverseChargeProof {
  consultationNumber: string | null;
  checkedAt: number;
}

/** Checks EU VAT ids (format, then registration in VIES) and decides on reverse charge. */
@Injectable()
export class VatValidationService {
  /** Ids VIES could not check lately, with when to ask again; per instance, for pricing only. */
  private readonly recentOutages = new Map<string, number>();

  constructor(
    private readonly vies: ViesClient,
    private readonly settings: SettingsService,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
  ) {}

  /** Checks `vatId` as an id of `country` (ISO alpha-2); VIES is asked only for a well-formed id. */
  async validate(vatId: string, country: string, options: VatCheckOptions): Promise<VatCheckResult> {
    const id = normaliseVatId(vatId);
    const code = country.toUpperCase();
    const own = vatPrefixOf(code);
    if (!own) return result('not_eu', id);
    const { prefix, number } = splitVatId(id, code);
    const normalised = prefix + number;
    if (prefix !== own) {
      // A GB id belongs to Great Britain, which left VIES; only Northern Ireland's XI ids can be checked.
      return result(prefix === 'GB' ? 'not_eu' : 'country_mismatch', normalised);
    }
    if (!hasVatFormat(prefix, number)) return result('invalid_format', normalised);
    if (!options.existence) return result('valid', normalised);

    const answer = await this.registration(prefix, number);
    if (answer.status === 'registered') {
      return { status: 'valid', vatId: normalised, name: answer.name, address: answer.address };
    }
    return result(answer.status, normalised);
  }

  /**
   * Whether a sale to the holder of `vatId` is reverse-charged: VAT checks on with the EU VAT service
   * (`format_existence`), the id registered there (unavailable counts as not) and of another EU country than the
   * shop's. A well-formed id proves nothing: under a format-only check the id goes on the invoice and VAT is
   * charged. The id must carry its prefix, which is how its country is known.
   */
  async reverseCharge(vatId: string | null, shopCountry: string): Promise<ReverseChargeProof | null> {
    if (!vatId || !this.settings.isOn('salesValidateVAT')) return null;
    if (this.settings.get('salesValidateVATType') !== 'format_existence') return null;
    const id = normaliseVatId(vatId);
    const country = countryOfVatId(id);
    if (!country || !EU_COUNTRIES.includes(country) || country === shopCountry.toUpperCase()) return null;
    const { prefix, number } = splitVatId(id, country);
    if (!hasVatFormat(prefix, number)) return null;
    // Every checkout step prices the cart: during an outage, charge VAT without waiting on VIES each time.
    if ((this.recentOutages.get(id) ?? 0) > Date.now()) return null;
    const answer = await this.registration(prefix, number);
    if (answer.status === 'unavailable') {
      if (this.recentOutages.size > 10_000) this.recentOutages.clear();
      this.recentOutages.set(id, Date.now() + OUTAGE_MS);
      return null;
    }
    this.recentOutages.delete(id);
    if (answer.status !== 'registered') return null;
    // Answers cached before consultation numbers were kept have neither field.
    return { consultationNumber: answer.consultationNumber ?? null, checkedAt: answer.checkedAt ?? Date.now() };
  }

  private async registration(prefix: string, number: string): Promise<ViesAnswer> {
    const key = `vat:${prefix}${number}`;
    // A cache that is down (Redis) only costs a call to VIES: it must not turn a check into an error.
    const cached = await this.cache.get<DefinitiveAnswer>(key).catch(() => undefined);
    if (cached) return cached;
    const answer = await this.vies.check(prefix, number, this.requester());
    // "Could not check" is about that moment, not the number: the next attempt must ask again.
    if (answer.status !== 'unavailable') await this.cache.set(key, answer, CACHE_TTL_MS).catch(() => undefined);
    return answer;
  }

  /** The shop's own VAT id as VIES's requester, so VIES numbers each consultation; none while it is unset. */
  private requester(): { prefix: string; number: string } | undefined {
    const own = normaliseVatId(this.settings.get('salesSellerVatId'));
    const country = countryOfVatId(own);
    if (!country) return undefined;
    const parts = splitVatId(own, country);
    return hasVatFormat(parts.prefix, parts.number) ? parts : undefined;
  }
}

function result(status: VatCheckStatus, vatId: string): VatCheckResult {
  return { status, vatId, name: null, address: null };
}
