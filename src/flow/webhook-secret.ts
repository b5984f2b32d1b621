import { createHash, randomBytes } from 'node:crypto';

/** A new webhook secret: 32 random bytes as base64url, 43 characters (docs/architecture.md: 32+ random). */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored and looked up instead of the secret. Finding a flow by this digest is the constant-time
 * comparison docs/architecture.md asks for: how long the index lookup takes depends on the digest, and the digest
 * of a guess tells nothing about how close the guess came to a real secret.
 */
export function webhookSecretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The first characters, shown in the CP so staff can tell secrets apart; 4 of 43 leave 230 random bits. */
export function webhookSecretHint(secret: string): string {
  return secret.slice(0, 4);
}
