import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PostConfirmationTriggerEvent, PreSignUpTriggerEvent } from 'aws-lambda';
import { AttemptLimiter } from './attempts';
import { CognitoError, INCORRECT_CREDENTIALS, invalidParameter, notAuthorized, userNotFound } from './errors';
import { assertPasswordPolicy, hashPassword, newCode, newTemporaryPassword, verifyPassword } from './passwords';
import type { PoolStore, StoredCode, StoredSession, StoredUser, UserStatus } from './store';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_MS, issueTokens, type SigningKeys } from './tokens';

export type CodeKind = 'signup' | 'resend' | 'forgot' | 'invite';

export interface ServiceConfig {
  userPoolId: string;
  clientId: string;
  region: string;
  issuer: string;
  customAttributes: ReadonlySet<string>;
  now: () => number;
  postConfirmation?: (event: PostConfirmationTriggerEvent) => Promise<unknown>;
  preSignUp?: (event: PreSignUpTriggerEvent) => Promise<unknown>;
  onCode: (info: { email: string; kind: CodeKind; code: string }) => void;
}

type Input = Record<string, unknown>;
type Output = Record<string, unknown>;
type Operation = (input: Input) => Promise<Output> | Output;

const SIGN_UP_CODE_TTL_MS = 24 * 60 * 60 * 1000;
const FORGOT_CODE_TTL_MS = 60 * 60 * 1000;
const CHALLENGE_TTL_MS = 3 * 60 * 1000;
const ADMIN_CLIENT_ID = 'CLIENT_ID_NOT_APPLICABLE';
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Standard OIDC attributes an app client may write (besides custom:* from the schema). */
const WRITABLE_STANDARD_ATTRIBUTES = new Set([
  'address',
  'birthdate',
  'email',
  'family_name',
  'gender',
  'given_name',
  'locale',
  'middle_name',
  'name',
  'nickname',
  'phone_number',
  'picture',
  'preferred_username',
  'profile',
  'updated_at',
  'website',
  'zoneinfo',
]);
/** Only administrators (Admin* calls) may set these. */
const ADMIN_ONLY_ATTRIBUTES = new Set(['email_verified', 'phone_number_verified']);

/** Attributes ListUsers can filter on, mapped to a reader. */
const FILTERABLE: Record<string, (u: StoredUser) => string | undefined> = {
  username: (u) => u.username,
  email: (u) => u.attributes.email,
  phone_number: (u) => u.attributes.phone_number,
  name: (u) => u.attributes.name,
  given_name: (u) => u.attributes.given_name,
  family_name: (u) => u.attributes.family_name,
  preferred_username: (u) => u.attributes.preferred_username,
  'cognito:user_status': (u) => u.status,
  status: (u) => (u.enabled ? 'Enabled' : 'Disabled'),
  sub: (u) => u.sub,
};
const CASE_INSENSITIVE_FILTERS = new Set(['username', 'email']);

// ---------------------------------------------------------------- input helpers

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function reqString(input: Input, field: string): string {
  const value = input[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidParameter(
      `1 validation error detected: Value null at '${lowerFirst(field)}' failed to satisfy constraint: Member must not be null`,
    );
  }
  return value;
}

function optString(input: Input, field: string): string | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParameter(`${field} must be a string`);
  return value;
}

function optStringMap(input: Input, field: string): Record<string, string> | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParameter(`${field} must be a map`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v !== 'string') throw invalidParameter(`${field}.${k} must be a string`);
    out[k] = v;
  }
  return out;
}

function attributeList(input: Input, field: string, required: boolean): Array<[string, string]> {
  const value = input[field];
  if (value === undefined || value === null) {
    if (required) reqString(input, field);
    return [];
  }
  if (!Array.isArray(value)) throw invalidParameter(`${field} must be a list of {Name, Value}`);
  return value.map((entry: unknown) => {
    const { Name, Value } = (entry ?? {}) as { Name?: unknown; Value?: unknown };
    if (typeof Name !== 'string' || Name.length === 0) throw invalidParameter(`${field}: every attribute needs a Name`);
    if (Value !== undefined && typeof Value !== 'string') throw invalidParameter(`${field}: value of ${Name} must be a string`);
    return [Name, Value ?? ''];
  });
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.charAt(0)}***@${domain.charAt(0)}***`;
}

function codeDelivery(email: string): Output {
  return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function epochSeconds(ms: number): number {
  return ms / 1000;
}

function usernameExists(): CognitoError {
  return new CognitoError('UsernameExistsException', 'An account with the given email already exists.');
}

function codeMismatch(): CognitoError {
  return new CognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.');
}

function attemptLimitExceeded(): CognitoError {
  return new CognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.');
}

// ---------------------------------------------------------------- the service

/** Cognito user-pool operations over the JSON 1.1 input/output shapes. */
export class CognitoService {
  private readonly challenges = new Map<string, { sub: string; expiresAt: number }>();
  private readonly sentCodes = new Map<string, string>();
  private readonly locks = new Map<string, Promise<void>>();

  private readonly operations: Record<string, Operation> = {
    SignUp: (i) => this.signUp(i),
    ConfirmSignUp: (i) => this.confirmSignUp(i),
    ResendConfirmationCode: (i) => this.resendConfirmationCode(i),
    InitiateAuth: (i) => this.initiateAuth(i),
    RespondToAuthChallenge: (i) => this.respondToAuthChallenge(i),
    GetTokensFromRefreshToken: (i) => this.getTokensFromRefreshToken(i),
    GetUser: (i) => this.getUser(i),
    UpdateUserAttributes: (i) => this.updateUserAttributes(i),
    ChangePassword: (i) => this.changePassword(i),
    ForgotPassword: (i) => this.forgotPassword(i),
    ConfirmForgotPassword: (i) => this.confirmForgotPassword(i),
    GlobalSignOut: (i) => this.globalSignOut(i),
    RevokeToken: (i) => this.revokeToken(i),
    DeleteUser: (i) => this.deleteUser(i),
    AdminCreateUser: (i) => this.adminCreateUser(i),
    AdminGetUser: (i) => this.adminGetUser(i),
    AdminDeleteUser: (i) => this.adminDeleteUser(i),
    AdminUpdateUserAttributes: (i) => this.adminUpdateUserAttributes(i),
    AdminSetUserPassword: (i) => this.adminSetUserPassword(i),
    AdminConfirmSignUp: (i) => this.adminConfirmSignUp(i),
    AdminDisableUser: (i) => this.adminSetEnabled(i, false),
    AdminEnableUser: (i) => this.adminSetEnabled(i, true),
    AdminUserGlobalSignOut: (i) => this.adminUserGlobalSignOut(i),
    ListUsers: (i) => this.listUsers(i),
  };

  private readonly attempts: AttemptLimiter;

  constructor(
    private readonly cfg: ServiceConfig,
    private readonly store: PoolStore,
    private readonly keys: SigningKeys,
  ) {
    this.attempts = new AttemptLimiter(() => this.now());
  }

  /** A code for a user name that does not exist: the same answers (and lockout) as a wrong code. */
  private unknownUserCode(username: string): CognitoError {
    if (this.attempts.isLocked('code', username)) return attemptLimitExceeded();
    this.attempts.failed('code', username);
    return codeMismatch();
  }

  get supportedOperations(): string[] {
    return Object.keys(this.operations);
  }

  async dispatch(operation: string, input: Input): Promise<Output> {
    const fn = Object.hasOwn(this.operations, operation) ? this.operations[operation] : undefined;
    if (!fn) {
      throw new CognitoError(
        'UnknownOperationException',
        `Operation ${operation} is not supported by the local Cognito stand-in (scripts/local/cognito)`,
      );
    }
    return await fn(input);
  }

  /** Latest code (verification code, reset code or temporary password) sent to this e-mail address. */
  lastCode(email: string): string | undefined {
    const key = email.trim().toLowerCase();
    const sent = this.sentCodes.get(key);
    if (sent) return sent;
    // After a restart the in-memory log is empty; fall back to the persisted codes.
    const user = this.findUser(key);
    const codes = [user?.signUpCode, user?.forgotCode].filter((c): c is StoredCode => c !== undefined);
    codes.sort((a, b) => b.issuedAt - a.issuedAt);
    return codes[0]?.code;
  }

  // ------------------------------------------------------------ lookups & guards

  private now(): number {
    return this.cfg.now();
  }

  private findUser(name: string): StoredUser | undefined {
    const key = name.trim().toLowerCase();
    return this.store.users.find(
      (u) => u.username === key || u.sub === key || (u.attributes.email ?? '').toLowerCase() === key,
    );
  }

  private byId(sub: string): StoredUser | undefined {
    return this.store.users.find((u) => u.sub === sub);
  }

  private requireUser(input: Input): StoredUser {
    const user = this.findUser(reqString(input, 'Username'));
    if (!user) throw userNotFound();
    return user;
  }

  private emailTaken(email: string, exceptSub?: string): boolean {
    const key = email.toLowerCase();
    return this.store.users.some(
      (u) => u.sub !== exceptSub && (u.username === key || (u.attributes.email ?? '').toLowerCase() === key),
    );
  }

  private checkClient(input: Input): string {
    const clientId = reqString(input, 'ClientId');
    if (clientId !== this.cfg.clientId) {
      throw new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`);
    }
    return clientId;
  }

  private checkPool(input: Input): void {
    const poolId = reqString(input, 'UserPoolId');
    if (poolId !== this.cfg.userPoolId) {
      throw new CognitoError('ResourceNotFoundException', `User pool ${poolId} does not exist.`);
    }
  }

  private emailUsername(raw: string): string {
    const value = raw.trim().toLowerCase();
    if (!EMAIL_RE.test(value)) throw invalidParameter('Username should be an email.');
    return value;
  }

  private validateAttributes(list: Array<[string, string]>, admin: boolean): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of list) {
      if (name === 'sub') throw invalidParameter('Cannot modify the non-mutable attribute sub');
      if (name.startsWith('custom:')) {
        if (!this.cfg.customAttributes.has(name)) {
          throw invalidParameter(
            `Attributes did not conform to the schema: Type for attribute {${name}} could not be determined`,
          );
        }
      } else if (ADMIN_ONLY_ATTRIBUTES.has(name)) {
        if (!admin) throw notAuthorized(`A client attempted to write unauthorized attribute ${name}`);
        if (value !== 'true' && value !== 'false') throw invalidParameter(`${name} must be 'true' or 'false'`);
      } else if (!WRITABLE_STANDARD_ATTRIBUTES.has(name)) {
        throw invalidParameter(`Attributes did not conform to the schema: ${name}: Attribute does not exist in the schema.`);
      }
      if (value.length > 2048) throw invalidParameter(`Attribute ${name} is longer than 2048 characters`);
      out[name] = value;
    }
    if (out.email !== undefined) {
      out.email = out.email.trim().toLowerCase();
      if (!EMAIL_RE.test(out.email)) throw invalidParameter('Invalid email address format.');
    }
    return out;
  }

  /** Checks a code of the user `username`; wrong codes count towards the lockout (attempts.ts). */
  private checkCode(username: string, stored: StoredCode | undefined, code: string): void {
    if (this.attempts.isLocked('code', username)) throw attemptLimitExceeded();
    if (!stored || stored.code !== code.trim()) {
      this.attempts.failed('code', username);
      throw codeMismatch();
    }
    this.attempts.succeeded('code', username);
    if (this.now() > stored.expiresAt) {
      throw new CognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.');
    }
  }

  private newStoredCode(ttlMs: number): StoredCode {
    const now = this.now();
    return { code: newCode(), issuedAt: now, expiresAt: now + ttlMs };
  }

  private sendCode(email: string, kind: CodeKind, code: string): void {
    this.sentCodes.set(email.toLowerCase(), code);
    try {
      this.cfg.onCode({ email, kind, code });
    } catch (err) {
      // Delivery is best effort, as with real e-mail; the code stays valid and visible via lastCode().
      console.error(`[cognito] onCode failed for ${email}:`, err);
    }
  }

  private attributeList(user: StoredUser, only?: ReadonlySet<string>): Array<{ Name: string; Value: string }> {
    const all = [['sub', user.sub] as const, ...Object.entries(user.attributes)];
    return all.filter(([name]) => !only || only.has(name)).map(([Name, Value]) => ({ Name, Value }));
  }

  private userType(user: StoredUser, only?: ReadonlySet<string>): Output {
    return {
      Username: user.username,
      Attributes: this.attributeList(user, only),
      UserCreateDate: epochSeconds(user.createdAt),
      UserLastModifiedDate: epochSeconds(user.updatedAt),
      Enabled: user.enabled,
      UserStatus: user.status,
    };
  }

  private touch(user: StoredUser): void {
    user.updatedAt = this.now();
  }

  /** Serialises the confirm operations per user, so a double submit cannot run the trigger twice. */
  private async withUserLock<T>(sub: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(sub) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.locks.set(sub, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(sub) === tail) this.locks.delete(sub);
    }
  }

  private async runPostConfirmation(
    triggerSource: PostConfirmationTriggerEvent['triggerSource'],
    user: StoredUser,
    attributes: Record<string, string>,
    clientId: string,
    clientMetadata: Record<string, string> | undefined,
  ): Promise<void> {
    const hook = this.cfg.postConfirmation;
    if (!hook) return;
    const event = {
      version: '1',
      region: this.cfg.region,
      userPoolId: this.cfg.userPoolId,
      userName: user.username,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId },
      triggerSource,
      request: {
        userAttributes: { sub: user.sub, ...attributes, 'cognito:user_status': 'CONFIRMED' },
        ...(clientMetadata ? { clientMetadata } : {}),
      },
      response: {},
    } as PostConfirmationTriggerEvent;
    try {
      await hook(event);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`[cognito] PostConfirmation (${triggerSource}) for ${user.username} failed:`, err);
      throw new CognitoError('UnexpectedLambdaException', `PostConfirmation failed with error ${message}.`);
    }
  }

  /**
   * The PreSignUp trigger of SignUp: its answer's autoConfirmUser / autoVerifyEmail; a trigger that fails refuses
   * the sign-up (UserLambdaValidationException), as Cognito does.
   */
  private async runPreSignUp(
    username: string,
    attributes: Record<string, string>,
    validationData: Record<string, string> | undefined,
    clientId: string,
    clientMetadata: Record<string, string> | undefined,
  ): Promise<{ autoConfirmUser: boolean; autoVerifyEmail: boolean }> {
    const hook = this.cfg.preSignUp;
    if (!hook) return { autoConfirmUser: false, autoVerifyEmail: false };
    const event = {
      version: '1',
      region: this.cfg.region,
      userPoolId: this.cfg.userPoolId,
      userName: username,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId },
      triggerSource: 'PreSignUp_SignUp',
      request: {
        userAttributes: attributes,
        validationData: validationData ?? null,
        ...(clientMetadata ? { clientMetadata } : {}),
      },
      response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
    } as unknown as PreSignUpTriggerEvent;
    let answer: unknown;
    try {
      answer = await hook(event);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`[cognito] PreSignUp for ${username} failed:`, err);
      throw new CognitoError('UserLambdaValidationException', `PreSignUp failed with error ${message}.`);
    }
    const response = ((answer && typeof answer === 'object' ? answer : event) as PreSignUpTriggerEvent).response;
    return { autoConfirmUser: response?.autoConfirmUser === true, autoVerifyEmail: response?.autoVerifyEmail === true };
  }

  /** Runs the PostConfirmation trigger, then (only if it succeeded) marks the user confirmed. */
  private async confirmUser(
    user: StoredUser,
    opts: { clientId: string; clientMetadata?: Record<string, string>; verifyEmail: boolean },
  ): Promise<void> {
    const attributes = { ...user.attributes, ...(opts.verifyEmail ? { email_verified: 'true' } : {}) };
    await this.runPostConfirmation('PostConfirmation_ConfirmSignUp', user, attributes, opts.clientId, opts.clientMetadata);
    // The trigger may have changed the user (e.g. AdminUpdateUserAttributes); re-read and change only our fields.
    const current = this.byId(user.sub);
    if (!current) throw userNotFound();
    current.status = 'CONFIRMED';
    if (opts.verifyEmail) current.attributes.email_verified = 'true';
    delete current.signUpCode;
    this.touch(current);
    await this.store.save();
  }

  private async startSession(user: StoredUser, clientId: string): Promise<Output> {
    const now = this.now();
    const refreshToken = randomBytes(48).toString('base64url');
    const session: StoredSession = {
      originJti: randomUUID(),
      eventId: randomUUID(),
      sub: user.sub,
      clientId,
      refreshTokenHash: sha256(refreshToken),
      authTime: Math.floor(now / 1000),
      createdAt: now,
      expiresAt: now + REFRESH_TOKEN_TTL_MS,
    };
    this.store.prune(now, ACCESS_TOKEN_TTL_S * 1000);
    this.store.addSession(session);
    await this.store.save();
    const tokens = await issueTokens(this.keys, { issuer: this.cfg.issuer, user, session, nowMs: now });
    return { AuthenticationResult: { ...tokens, RefreshToken: refreshToken }, ChallengeParameters: {} };
  }

  private async refreshSession(refreshToken: string | undefined, clientId: string): Promise<Output> {
    if (!refreshToken) throw invalidParameter('Missing required parameter REFRESH_TOKEN');
    const hash = sha256(refreshToken);
    const session = this.store.sessions.find((s) => s.refreshTokenHash === hash);
    if (!session || session.clientId !== clientId) throw notAuthorized('Invalid Refresh Token');
    if (session.revokedAt !== undefined) throw notAuthorized('Refresh Token has been revoked');
    const now = this.now();
    if (session.expiresAt <= now) throw notAuthorized('Refresh Token has expired');
    const user = this.byId(session.sub);
    if (!user) throw notAuthorized('Invalid Refresh Token');
    if (!user.enabled) throw notAuthorized('User is disabled.');
    const tokens = await issueTokens(this.keys, { issuer: this.cfg.issuer, user, session, nowMs: now });
    return { AuthenticationResult: tokens, ChallengeParameters: {} };
  }

  /** Validates an access token: signature, issuer, expiry, not signed out/revoked, user exists and is enabled. */
  private async authenticate(input: Input): Promise<{ user: StoredUser; session: StoredSession }> {
    const token = reqString(input, 'AccessToken');
    const claims = await this.keys.verifyAccessToken(token, this.cfg.issuer, this.now());
    const session = this.store.sessions.find((s) => s.originJti === claims.origin_jti);
    if (!session || session.revokedAt !== undefined) throw notAuthorized('Access Token has been revoked');
    const user = this.byId(claims.sub);
    if (!user) throw userNotFound();
    if (!user.enabled) throw notAuthorized('User is disabled.');
    return { user, session };
  }

  private revokeSessions(sub: string): void {
    const now = this.now();
    for (const s of this.store.sessions) if (s.sub === sub && s.revokedAt === undefined) s.revokedAt = now;
  }

  // ------------------------------------------------------------ client operations

  private async signUp(input: Input): Promise<Output> {
    const clientId = this.checkClient(input);
    const username = this.emailUsername(reqString(input, 'Username'));
    const password = reqString(input, 'Password');
    const attributes = this.validateAttributes(attributeList(input, 'UserAttributes', false), false);
    if (attributes.email !== undefined && attributes.email !== username) {
      throw invalidParameter('The email attribute must equal the username (this pool signs in with the e-mail address).');
    }
    assertPasswordPolicy(password);
    if (this.emailTaken(username)) throw usernameExists();
    const clientMetadata = optStringMap(input, 'ClientMetadata');
    const validationData = Object.fromEntries(attributeList(input, 'ValidationData', false));
    const passwordHash = await hashPassword(password);
    const trigger = await this.runPreSignUp(
      username,
      { ...attributes, email: username },
      Object.keys(validationData).length > 0 ? validationData : undefined,
      clientId,
      clientMetadata,
    );
    if (this.emailTaken(username)) throw usernameExists(); // a concurrent SignUp won the race
    const now = this.now();
    const signUpCode = trigger.autoConfirmUser ? undefined : this.newStoredCode(SIGN_UP_CODE_TTL_MS);
    const user: StoredUser = {
      sub: randomUUID(),
      username,
      attributes: { ...attributes, email: username, email_verified: trigger.autoVerifyEmail ? 'true' : 'false' },
      passwordHash,
      status: 'UNCONFIRMED',
      enabled: true,
      createdAt: now,
      updatedAt: now,
      ...(signUpCode ? { signUpCode } : {}),
    };
    this.store.addUser(user);
    await this.store.save();
    if (!signUpCode) {
      // Confirmed by the trigger: PostConfirmation runs now, at sign-up, and no code is sent
      await this.withUserLock(user.sub, () => this.confirmUser(user, { clientId, clientMetadata, verifyEmail: trigger.autoVerifyEmail }));
      return { UserConfirmed: true, UserSub: user.sub };
    }
    this.sendCode(username, 'signup', signUpCode.code);
    return { UserConfirmed: false, UserSub: user.sub, CodeDeliveryDetails: codeDelivery(username) };
  }

  private async confirmSignUp(input: Input): Promise<Output> {
    const clientId = this.checkClient(input);
    const name = reqString(input, 'Username');
    const code = reqString(input, 'ConfirmationCode');
    const clientMetadata = optStringMap(input, 'ClientMetadata');
    const found = this.findUser(name);
    if (!found) throw this.unknownUserCode(name); // no user-existence disclosure
    await this.withUserLock(found.sub, async () => {
      const user = this.byId(found.sub);
      if (!user) throw codeMismatch();
      if (user.status !== 'UNCONFIRMED') {
        throw notAuthorized(`User cannot be confirmed. Current status is ${user.status}`);
      }
      this.checkCode(name, user.signUpCode, code);
      await this.confirmUser(user, { clientId, clientMetadata, verifyEmail: true });
    });
    return {};
  }

  private async resendConfirmationCode(input: Input): Promise<Output> {
    this.checkClient(input);
    const name = reqString(input, 'Username');
    const user = this.findUser(name);
    if (!user) return { CodeDeliveryDetails: codeDelivery(name) }; // no user-existence disclosure
    if (user.status !== 'UNCONFIRMED') throw invalidParameter('User is already confirmed.');
    const email = user.attributes.email ?? user.username;
    user.signUpCode = this.newStoredCode(SIGN_UP_CODE_TTL_MS);
    this.touch(user);
    await this.store.save();
    this.sendCode(email, 'resend', user.signUpCode.code);
    return { CodeDeliveryDetails: codeDelivery(email) };
  }

  private async initiateAuth(input: Input): Promise<Output> {
    const clientId = this.checkClient(input);
    const flow = reqString(input, 'AuthFlow');
    const params = optStringMap(input, 'AuthParameters') ?? {};
    switch (flow) {
      case 'USER_PASSWORD_AUTH':
        return this.passwordAuth(params.USERNAME, params.PASSWORD, clientId);
      case 'REFRESH_TOKEN_AUTH':
      case 'REFRESH_TOKEN':
        return this.refreshSession(params.REFRESH_TOKEN, clientId);
      case 'USER_SRP_AUTH':
      case 'CUSTOM_AUTH':
      case 'USER_AUTH':
        throw invalidParameter(
          `${flow} flow not enabled for this client (the local Cognito stand-in supports USER_PASSWORD_AUTH; ` +
            `call signIn with options.authFlowType 'USER_PASSWORD_AUTH')`,
        );
      default:
        throw invalidParameter(`Invalid AuthFlow ${flow}`);
    }
  }

  private async passwordAuth(username: string | undefined, password: string | undefined, clientId: string) {
    if (!username) throw invalidParameter('Missing required parameter USERNAME');
    if (!password) throw invalidParameter('Missing required parameter PASSWORD');
    if (this.attempts.isLocked('sign-in', username)) throw notAuthorized('Password attempts exceeded');
    const user = this.findUser(username);
    if (!user || !(await verifyPassword(password, user.passwordHash))) {
      this.attempts.failed('sign-in', username);
      throw notAuthorized(INCORRECT_CREDENTIALS);
    }
    this.attempts.succeeded('sign-in', username);
    if (!user.enabled) throw notAuthorized('User is disabled.');
    if (user.status === 'UNCONFIRMED') throw new CognitoError('UserNotConfirmedException', 'User is not confirmed.');
    if (user.status === 'RESET_REQUIRED') {
      throw new CognitoError('PasswordResetRequiredException', 'Password reset required for the user');
    }
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      const session = randomBytes(32).toString('base64url');
      this.challenges.set(session, { sub: user.sub, expiresAt: this.now() + CHALLENGE_TTL_MS });
      return {
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: session,
        ChallengeParameters: {
          USER_ID_FOR_SRP: user.username,
          requiredAttributes: '[]',
          userAttributes: JSON.stringify(user.attributes),
        },
      };
    }
    return this.startSession(user, clientId);
  }

  private async respondToAuthChallenge(input: Input): Promise<Output> {
    const clientId = this.checkClient(input);
    const challengeName = reqString(input, 'ChallengeName');
    if (challengeName !== 'NEW_PASSWORD_REQUIRED') {
      throw invalidParameter(`Challenge ${challengeName} is not supported by the local Cognito stand-in`);
    }
    const sessionToken = reqString(input, 'Session');
    const responses = optStringMap(input, 'ChallengeResponses') ?? {};
    const challenge = this.challenges.get(sessionToken);
    if (!challenge || challenge.expiresAt < this.now()) {
      throw notAuthorized('Invalid session for the user, session is expired.');
    }
    const user = this.byId(challenge.sub);
    if (!user || user.status !== 'FORCE_CHANGE_PASSWORD') throw notAuthorized('Invalid session for the user.');
    const newPassword = responses.NEW_PASSWORD;
    if (!newPassword) throw invalidParameter('Missing required parameter NEW_PASSWORD');
    assertPasswordPolicy(newPassword);
    const extra = Object.entries(responses)
      .filter(([k]) => k.startsWith('userAttributes.'))
      .map(([k, v]): [string, string] => [k.slice('userAttributes.'.length), v]);
    const attributes = this.validateAttributes(extra, false);
    if (attributes.email !== undefined && attributes.email !== (user.attributes.email ?? '').toLowerCase()) {
      throw invalidParameter('Changing the email attribute is not supported by the local Cognito stand-in.');
    }
    const passwordHash = await hashPassword(newPassword);
    this.challenges.delete(sessionToken);
    user.passwordHash = passwordHash;
    user.status = 'CONFIRMED';
    Object.assign(user.attributes, attributes);
    this.touch(user);
    await this.store.save();
    return this.startSession(user, clientId);
  }

  private async getTokensFromRefreshToken(input: Input): Promise<Output> {
    const clientId = this.checkClient(input);
    const { AuthenticationResult } = await this.refreshSession(reqString(input, 'RefreshToken'), clientId);
    return { AuthenticationResult };
  }

  private async getUser(input: Input): Promise<Output> {
    const { user } = await this.authenticate(input);
    return { Username: user.username, UserAttributes: this.attributeList(user) };
  }

  private async updateUserAttributes(input: Input): Promise<Output> {
    const { user } = await this.authenticate(input);
    const attributes = this.validateAttributes(attributeList(input, 'UserAttributes', true), false);
    if (attributes.email !== undefined && attributes.email !== (user.attributes.email ?? '').toLowerCase()) {
      throw invalidParameter(
        'Changing the email attribute is not supported by the local Cognito stand-in (no VerifyUserAttribute); use AdminUpdateUserAttributes.',
      );
    }
    Object.assign(user.attributes, attributes);
    this.touch(user);
    await this.store.save();
    return { CodeDeliveryDetailsList: [] };
  }

  private async changePassword(input: Input): Promise<Output> {
    const previous = reqString(input, 'PreviousPassword');
    const proposed = reqString(input, 'ProposedPassword');
    const { user } = await this.authenticate(input);
    if (!(await verifyPassword(previous, user.passwordHash))) throw notAuthorized(INCORRECT_CREDENTIALS);
    assertPasswordPolicy(proposed);
    user.passwordHash = await hashPassword(proposed);
    this.touch(user);
    await this.store.save();
    return {};
  }

  private async forgotPassword(input: Input): Promise<Output> {
    this.checkClient(input);
    const name = reqString(input, 'Username');
    const user = this.findUser(name);
    if (!user) return { CodeDeliveryDetails: codeDelivery(name) }; // no user-existence disclosure
    if (!user.enabled) throw notAuthorized('User is disabled.');
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      throw notAuthorized('User password cannot be reset in the current state.');
    }
    const email = user.attributes.email;
    if (!email || user.attributes.email_verified !== 'true') {
      throw invalidParameter(
        'Cannot reset password for the user as there is no registered/verified email or phone_number',
      );
    }
    user.forgotCode = this.newStoredCode(FORGOT_CODE_TTL_MS);
    this.touch(user);
    await this.store.save();
    this.sendCode(email, 'forgot', user.forgotCode.code);
    return { CodeDeliveryDetails: codeDelivery(email) };
  }

  private async confirmForgotPassword(input: Input): Promise<Output> {
    const clientId = this.checkClient(input);
    const name = reqString(input, 'Username');
    const code = reqString(input, 'ConfirmationCode');
    const password = reqString(input, 'Password');
    const clientMetadata = optStringMap(input, 'ClientMetadata');
    const found = this.findUser(name);
    if (!found) throw this.unknownUserCode(name);
    assertPasswordPolicy(password);
    await this.withUserLock(found.sub, async () => {
      const user = this.byId(found.sub);
      if (!user) throw codeMismatch();
      this.checkCode(name, user.forgotCode, code);
      const passwordHash = await hashPassword(password);
      await this.runPostConfirmation(
        'PostConfirmation_ConfirmForgotPassword',
        user,
        { ...user.attributes },
        clientId,
        clientMetadata,
      );
      const current = this.byId(user.sub);
      if (!current) throw userNotFound();
      current.passwordHash = passwordHash;
      if (current.status === 'RESET_REQUIRED') current.status = 'CONFIRMED';
      delete current.forgotCode;
      this.touch(current);
      await this.store.save();
    });
    return {};
  }

  private async globalSignOut(input: Input): Promise<Output> {
    const { user } = await this.authenticate(input);
    this.revokeSessions(user.sub);
    await this.store.save();
    return {};
  }

  private async revokeToken(input: Input): Promise<Output> {
    const clientId = this.checkClient(input);
    const token = reqString(input, 'Token');
    if (token.split('.').length === 3 && token.startsWith('eyJ')) {
      throw new CognitoError('UnsupportedTokenTypeException', 'Only refresh tokens can be revoked.');
    }
    const hash = sha256(token);
    const session = this.store.sessions.find((s) => s.refreshTokenHash === hash);
    if (session && session.clientId === clientId && session.revokedAt === undefined) {
      session.revokedAt = this.now();
      await this.store.save();
    }
    return {};
  }

  private async deleteUser(input: Input): Promise<Output> {
    const { user } = await this.authenticate(input);
    this.store.removeUser(user.sub);
    await this.store.save();
    return {};
  }

  // ------------------------------------------------------------ admin operations
  // (IAM signatures are not checked: anything that reaches this server is trusted.)

  private async adminCreateUser(input: Input): Promise<Output> {
    this.checkPool(input);
    const username = this.emailUsername(reqString(input, 'Username'));
    const attributes = this.validateAttributes(attributeList(input, 'UserAttributes', false), true);
    if (attributes.email !== undefined && attributes.email !== username) {
      throw invalidParameter('The email attribute must equal the username (this pool signs in with the e-mail address).');
    }
    const messageAction = optString(input, 'MessageAction');
    if (messageAction !== undefined && messageAction !== 'RESEND' && messageAction !== 'SUPPRESS') {
      throw invalidParameter(`Invalid MessageAction ${messageAction}`);
    }
    const temporaryPassword = optString(input, 'TemporaryPassword');
    if (temporaryPassword) assertPasswordPolicy(temporaryPassword);
    const password = temporaryPassword || newTemporaryPassword();
    const existing = this.findUser(username);

    if (messageAction === 'RESEND') {
      if (!existing) throw userNotFound();
      if (existing.status !== 'FORCE_CHANGE_PASSWORD') {
        throw new CognitoError(
          'UnsupportedUserStateException',
          `Resend not possible. ${existing.username} status is not FORCE_CHANGE_PASSWORD`,
        );
      }
      existing.passwordHash = await hashPassword(password);
      this.touch(existing);
      await this.store.save();
      this.sendCode(existing.attributes.email ?? existing.username, 'invite', password);
      return { User: this.userType(existing) };
    }

    if (existing) throw new CognitoError('UsernameExistsException', 'User account already exists');
    const passwordHash = await hashPassword(password);
    if (this.emailTaken(username)) throw new CognitoError('UsernameExistsException', 'User account already exists');
    const now = this.now();
    const user: StoredUser = {
      sub: randomUUID(),
      username,
      attributes: { email_verified: 'false', ...attributes, email: username },
      passwordHash,
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
      createdAt: now,
      updatedAt: now,
    };
    this.store.addUser(user);
    await this.store.save();
    if (messageAction !== 'SUPPRESS') this.sendCode(username, 'invite', password);
    return { User: this.userType(user) };
  }

  private adminGetUser(input: Input): Output {
    this.checkPool(input);
    const user = this.requireUser(input);
    return {
      Username: user.username,
      UserAttributes: this.attributeList(user),
      UserCreateDate: epochSeconds(user.createdAt),
      UserLastModifiedDate: epochSeconds(user.updatedAt),
      Enabled: user.enabled,
      UserStatus: user.status,
    };
  }

  private async adminDeleteUser(input: Input): Promise<Output> {
    this.checkPool(input);
    const user = this.requireUser(input);
    this.store.removeUser(user.sub);
    await this.store.save();
    return {};
  }

  private async adminUpdateUserAttributes(input: Input): Promise<Output> {
    this.checkPool(input);
    const user = this.requireUser(input);
    const attributes = this.validateAttributes(attributeList(input, 'UserAttributes', true), true);
    const currentEmail = (user.attributes.email ?? '').toLowerCase();
    if (attributes.email !== undefined && attributes.email !== currentEmail) {
      if (this.emailTaken(attributes.email, user.sub)) {
        throw new CognitoError('AliasExistsException', 'An account with the given email already exists.');
      }
      if (attributes.email_verified === undefined) attributes.email_verified = 'false';
    }
    Object.assign(user.attributes, attributes);
    this.touch(user);
    await this.store.save();
    return {};
  }

  private async adminSetUserPassword(input: Input): Promise<Output> {
    this.checkPool(input);
    const user = this.requireUser(input);
    const password = reqString(input, 'Password');
    const permanent = input.Permanent === true;
    assertPasswordPolicy(password);
    user.passwordHash = await hashPassword(password);
    const status: UserStatus = permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD';
    user.status = status;
    if (permanent) delete user.signUpCode;
    this.touch(user);
    await this.store.save();
    return {};
  }

  private async adminConfirmSignUp(input: Input): Promise<Output> {
    this.checkPool(input);
    const found = this.requireUser(input);
    const clientMetadata = optStringMap(input, 'ClientMetadata');
    await this.withUserLock(found.sub, async () => {
      const user = this.byId(found.sub);
      if (!user) throw userNotFound();
      if (user.status !== 'UNCONFIRMED') {
        throw notAuthorized(`User cannot be confirmed. Current status is ${user.status}`);
      }
      // Like Cognito, an admin confirmation does not mark the e-mail address verified.
      await this.confirmUser(user, { clientId: ADMIN_CLIENT_ID, clientMetadata, verifyEmail: false });
    });
    return {};
  }

  private async adminSetEnabled(input: Input, enabled: boolean): Promise<Output> {
    this.checkPool(input);
    const user = this.requireUser(input);
    user.enabled = enabled;
    this.touch(user);
    await this.store.save();
    return {};
  }

  private async adminUserGlobalSignOut(input: Input): Promise<Output> {
    this.checkPool(input);
    const user = this.requireUser(input);
    this.revokeSessions(user.sub);
    await this.store.save();
    return {};
  }

  private listUsers(input: Input): Output {
    this.checkPool(input);
    const filter = optString(input, 'Filter');
    const limitRaw = input.Limit;
    const requested = limitRaw === undefined || limitRaw === null ? 0 : Number(limitRaw);
    if (!Number.isInteger(requested) || requested < 0 || requested > 60) {
      throw invalidParameter('Limit must be between 0 and 60');
    }
    const limit = requested === 0 ? 60 : requested;
    const attributesToGet = input.AttributesToGet;
    const only = Array.isArray(attributesToGet) ? new Set(attributesToGet.map(String)) : undefined;
    const token = optString(input, 'PaginationToken');
    const offset = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw invalidParameter('Invalid PaginationToken');

    let users = this.store.users;
    if (filter && filter.trim()) {
      const m = /^\s*"?([\w:]+)"?\s*(\^?=)\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(filter);
      if (!m) throw invalidParameter('Error while parsing filter.');
      const [, attr = '', op, rawValue = ''] = m;
      const read = Object.hasOwn(FILTERABLE, attr) ? FILTERABLE[attr] : undefined;
      if (!read) throw invalidParameter(`Invalid search attribute ${attr}`);
      const fold = CASE_INSENSITIVE_FILTERS.has(attr) ? (s: string) => s.toLowerCase() : (s: string) => s;
      const wanted = fold(rawValue.replace(/\\(.)/g, '$1'));
      users = users.filter((u) => {
        const v = read(u);
        if (v === undefined) return false;
        return op === '=' ? fold(v) === wanted : fold(v).startsWith(wanted);
      });
    }
    const page = users.slice(offset, offset + limit);
    const next = offset + limit < users.length ? Buffer.from(String(offset + limit)).toString('base64url') : undefined;
    return {
      Users: page.map((u) => this.userType(u, only)),
      ...(next ? { PaginationToken: next } : {}),
    };
  }
}
