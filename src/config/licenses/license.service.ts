import { KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { upsertRow } from '../../database/upsert';
import { AppConfig } from '../app-config';
import { InjectConfig } from '../config.module';
import { License } from './license.entity';
import { LicenseRefused } from './license.errors';
import { ed25519PublicKey } from './license-key';
import { LicenseServerClient } from './license-server.client';
import { LicenseClaims, verifyLicenseToken } from './license-token';

export type LicenseStatus = 'none' | 'active' | 'expired' | 'invalid' | 'revoked';

/** A plugin's license as the CP shows it. */
export interface LicenseState {
  status: LicenseStatus;
  /** The stored license; null when none was ever activated. */
  license: License | null;
  /** Why a stored license no longer verifies (expired, or invalid under the configured key). */
  problem: string | null;
}

const MAX_CODE_LENGTH = 100;

/**
 * Plugin licenses: tokens verified offline against the configured public key, one stored per plugin.
 * Licenses gate nothing; they are shown in the CP.
 */
@Injectable()
export class LicenseService {
  private readonly publicKey: KeyObject | null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly server: LicenseServerClient,
    @InjectConfig() config: AppConfig,
  ) {
    this.publicKey = config.licensePublicKey ? ed25519PublicKey(config.licensePublicKey) : null;
  }

  /** Verifies a token and stores it as the plugin's active license; a refused token stores nothing. */
  async activate(plugin: string, pasted: string): Promise<LicenseClaims> {
    // A token copied out of a wrapped textarea or an e-mail may carry line breaks.
    const token = pasted.replace(/\s+/g, '');
    if (token === '') throw new LicenseRefused('Paste a license token first.');
    const verdict = verifyLicenseToken(token, plugin, this.publicKey);
    if (!verdict.ok) throw new LicenseRefused(`License refused: ${verdict.reason}`);
    const { claims } = verdict;
    await this.runner.run(({ manager }) =>
      upsertRow(
        manager,
        License,
        {
          plugin,
          token,
          licenseId: claims.licenseId,
          licensee: claims.licensee,
          edition: claims.edition,
          issuedAt: Date.parse(claims.issuedAt),
          expiresAt: claims.expiresAt === null ? null : Date.parse(claims.expiresAt),
          status: 'active',
          activatedAt: Date.now(),
          revokedAt: null,
        },
        ['plugin'],
      ),
    );
    return claims;
  }

  /** Exchanges a purchase code at the license server and activates the token it gives, like a pasted one. */
  async redeem(plugin: string, entered: string): Promise<LicenseClaims> {
    const code = entered.trim();
    if (code === '') throw new LicenseRefused('Enter a purchase code first.');
    if (code.length > MAX_CODE_LENGTH) throw new LicenseRefused('That is too long for a purchase code.');
    return this.activate(plugin, await this.server.redeem(plugin, code));
  }

  /** The stored license, its token checked again (the key may have changed, time may have run out). */
  async state(plugin: string): Promise<LicenseState> {
    const license = await this.dataSource.getRepository(License).findOneBy({ plugin });
    if (!license) return { status: 'none', license: null, problem: null };
    if (license.status === 'revoked') return { status: 'revoked', license, problem: null };
    const verdict = verifyLicenseToken(license.token, plugin, this.publicKey);
    if (verdict.ok) return { status: 'active', license, problem: null };
    return { status: verdict.refusal === 'expired' ? 'expired' : 'invalid', license, problem: verdict.reason };
  }

  /** Marks the plugin's license revoked; the row stays, so the CP shows what was revoked and when. */
  async revoke(plugin: string): Promise<void> {
    const result = await this.runner.run(({ manager }) =>
      manager.update(License, { plugin, status: 'active' }, { status: 'revoked', revokedAt: Date.now() }),
    );
    if (!result.affected) throw new LicenseRefused('There is no license to revoke.');
  }
}
