import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CODE_LIFETIME_MS,
  EndpointMode,
  IdTokenFault,
  IssuedAccessToken,
  IssuedCode,
  Provider,
  SandboxUser,
  TOKEN_LIFETIME_SECONDS,
} from './oauth-sandbox.model';

export type NewSandboxUser = Omit<SandboxUser, 'key' | 'subjects'>;

/** Who the sign-in page offers from the start: one verified e-mail, one unverified. */
const BUILT_IN_USERS: Array<NewSandboxUser & { key: string }> = [
  { key: 'ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@sandbox.example', emailVerified: true },
  { key: 'grace', firstName: 'Grace', lastName: 'Hopper', email: 'grace@sandbox.example', emailVerified: false },
];

/**
 * Subject ids in each provider's usual form, derived from the user's key: the same person keeps the same id
 * across restarts, so a demo account stays linked.
 */
function subjectsFor(key: string): Record<Provider, string> {
  const digest = (provider: string) => createHash('sha256').update(`${provider}:${key}`).digest('hex');
  const digits = (hex: string, length: number) => BigInt(`0x${hex}`).toString().slice(0, length);
  return {
    google: `1${digits(digest('google'), 20)}`,
    facebook: `10${digits(digest('facebook'), 14)}`,
    apple: `000${digits(digest('apple'), 3)}.${digest('apple').slice(0, 32)}.${digits(digest('apple'), 4)}`,
  };
}

/** The sandbox providers' memory: users, codes, tokens and the test switches (one per app). */
@Injectable()
export class OAuthSandboxState {
  private readonly users = new Map<string, SandboxUser>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, IssuedAccessToken>();
  private userCounter = 0;
  private idTokenFault: IdTokenFault = 'none';
  private endpointMode: EndpointMode = 'normal';

  constructor() {
    this.reset();
  }

  listUsers(): SandboxUser[] {
    return [...this.users.values()];
  }

  user(key: string): SandboxUser | undefined {
    return this.users.get(key);
  }

  addUser(input: NewSandboxUser): SandboxUser {
    return this.store(`user${++this.userCounter}`, input);
  }

  updateUser(user: SandboxUser, changes: Partial<NewSandboxUser>): SandboxUser {
    return Object.assign(user, changes);
  }

  issueCode(code: Omit<IssuedCode, 'expiresAt'>): string {
    const value = randomBytes(24).toString('base64url');
    this.codes.set(value, { ...code, expiresAt: Date.now() + CODE_LIFETIME_MS });
    return value;
  }

  /** The code's grant, once: a second exchange of the same code finds nothing, as at the real providers. */
  redeemCode(value: string): IssuedCode | undefined {
    const code = this.codes.get(value);
    this.codes.delete(value);
    return code && code.expiresAt > Date.now() ? code : undefined;
  }

  issueAccessToken(grant: Omit<IssuedAccessToken, 'expiresAt'>): string {
    const value = randomBytes(32).toString('base64url');
    this.tokens.set(value, { ...grant, expiresAt: Date.now() + TOKEN_LIFETIME_SECONDS * 1000 });
    return value;
  }

  /** The live token's grant; undefined for unknown or expired tokens and tokens of another provider. */
  accessToken(value: string, provider: Provider): IssuedAccessToken | undefined {
    const token = this.tokens.get(value);
    return token && token.provider === provider && token.expiresAt > Date.now() ? token : undefined;
  }

  get fault(): IdTokenFault {
    return this.idTokenFault;
  }

  setFault(fault: IdTokenFault): void {
    this.idTokenFault = fault;
  }

  get mode(): EndpointMode {
    return this.endpointMode;
  }

  setMode(mode: EndpointMode): void {
    this.endpointMode = mode;
  }

  /** Forgets codes, tokens and added users, and turns the switches off. New users still get fresh keys. */
  reset(): void {
    this.users.clear();
    this.codes.clear();
    this.tokens.clear();
    this.idTokenFault = 'none';
    this.endpointMode = 'normal';
    for (const { key, ...user } of BUILT_IN_USERS) this.store(key, user);
  }

  private store(key: string, input: NewSandboxUser): SandboxUser {
    const user = { key, ...input, subjects: subjectsFor(key) };
    this.users.set(key, user);
    return user;
  }
}
