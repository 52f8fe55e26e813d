import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { createHash } from 'node:crypto';
import { AccountRecovery, CfnUserPoolGroup, StringAttribute, UserPool, UserPoolClient, UserPoolEmail, UserPoolOperation, VerificationEmailStyle, type UserVerificationConfig } from 'aws-cdk-lib/aws-cognito';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { CODE_MAIL } from '../../shared/code-mail';
import { GLOBAL_ADMIN_GROUP } from '../../shared/constants';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import type { HandlerBundle } from '../build/bundle-handlers';
import type { HandlerEntries } from '../build/handler-entries';
import { senderAddress, USER_POOL_ADMIN_ACTIONS } from '../constructs/grants';
import { HandlerFunction } from '../constructs/handler-function';

export interface AuthStackProps extends StackProps {
  bundle: HandlerBundle;
  entries: HandlerEntries;
  table: ITable;
  documentsBucket: IBucket;
  globalAdminEmails: string;
  /**
   * Sender of the pool's mail (sign-up codes, password resets) through SES (context `mailFrom`, the same sender
   * as invitations, e.g. `Receipts <no-reply@example.com>`). Without it the pool uses Cognito's own sender,
   * which sends about 50 messages a day.
   */
  mailFrom?: string;
  /** The SES identity that verifies the sender, when it is a domain (context `sesIdentity`, e.g. `example.com`). */
  sesIdentity?: string;
}

/** The pool's e-mail settings: SES with the sender and identity from context, or Cognito's default sender. */
export function userPoolEmail(mailFrom: string | undefined, sesIdentity: string | undefined, region: string): UserPoolEmail | undefined {
  if (!mailFrom?.trim()) return undefined;
  const fromEmail = senderAddress(mailFrom);
  const name = /^\s*"?([^"<]+?)"?\s*</.exec(mailFrom)?.[1]?.trim();
  return UserPoolEmail.withSES({
    fromEmail,
    ...(name ? { fromName: name } : {}),
    sesRegion: region,
    ...(sesIdentity?.trim() ? { sesVerifiedDomain: sesIdentity.trim().toLowerCase() } : {}),
  });
}

/**
 * The code mail (sign-up, resend, forgotten password: Cognito's verification message serves them all): the
 * product's subject and text (shared/code-mail.ts, which local mode sends too) when the pool sends through SES;
 * Cognito takes a custom message only with EmailSendingAccount DEVELOPER, so its own sender keeps its own text.
 */
export function userPoolVerification(mailFrom: string | undefined): UserVerificationConfig {
  if (!mailFrom?.trim()) return { emailStyle: VerificationEmailStyle.CODE };
  return { emailStyle: VerificationEmailStyle.CODE, emailSubject: CODE_MAIL.subject, emailBody: CODE_MAIL.body };
}

/** The custom attributes of the pool, from the names the code uses (shared/schemas/auth.ts). */
export const CUSTOM_ATTRIBUTE_NAMES = Object.values(COGNITO_ATTRIBUTES).map((a) => a.replace(/^custom:/, ''));

/**
 * Cognito user pool (e-mail is the username, self sign-up, e-mail verification and recovery), the SPA's app
 * client (USER_PASSWORD_AUTH + SRP, no secret), the PreSignUp trigger (an invited sign-up with its link's token is
 * confirmed at once) and the PostConfirmation trigger.
 */
export class AuthStack extends Stack {
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  readonly postConfirmation: HandlerFunction;
  readonly preSignUp: HandlerFunction;
  /** Platform admin: the Cognito group `global-admins` (its members carry it in `cognito:groups`). */
  readonly globalAdmins: CfnUserPoolGroup;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);

    // The trigger cannot see the pool's id or ARN through its environment or role policy: the pool refers to
    // the function (LambdaConfig), so that would be a cycle. It gets them from the event (event.userPoolId);
    // pool-admin calls, if it ever makes them, are granted by a separate Policy below (no cycle).
    // It is deployed before the WebSocket API, so it publishes no live events (WS_CALLBACK_URL unset →
    // LiveEvents.publish is a no-op); nothing is connected to a user who is only just confirming anyway.
    this.postConfirmation = new HandlerFunction(this, 'PostConfirmationFn', {
      handler: props.entries.triggers.postConfirmation,
      bundle: props.bundle,
      description: 'Cognito PostConfirmation trigger',
      // Cognito waits 5 s for a trigger; a longer timeout lets a slow cold start finish its write.
      timeout: Duration.seconds(10),
      resources: { table: props.table, documentsBucket: props.documentsBucket, globalAdminEmails: props.globalAdminEmails },
      withheld: {
        webSocketManage: 'deployed before the WebSocket API; live events are a no-op without WS_CALLBACK_URL',
        userPoolAdmin: 'granted on the pool by a separate Policy (a role-policy reference would be a cycle)',
      },
    });

    // Reads the invitation a sign-up names; nothing else (it never writes: PostConfirmation provisions).
    this.preSignUp = new HandlerFunction(this, 'PreSignUpFn', {
      handler: props.entries.triggers.preSignUp,
      bundle: props.bundle,
      description: 'Cognito PreSignUp trigger',
      timeout: Duration.seconds(10),
      resources: { table: props.table, globalAdminEmails: props.globalAdminEmails },
    });

    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      userVerification: userPoolVerification(props.mailFrom),
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: Object.fromEntries(CUSTOM_ATTRIBUTE_NAMES.map((name) => [name, new StringAttribute({ mutable: true })])),
      passwordPolicy: {
        minLength: 8,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: false,
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      email: userPoolEmail(props.mailFrom, props.sesIdentity, this.region),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.userPool.addTrigger(UserPoolOperation.POST_CONFIRMATION, this.postConfirmation);
    this.userPool.addTrigger(UserPoolOperation.PRE_SIGN_UP, this.preSignUp);

    if (this.postConfirmation.awsNeeds.has('userPoolAdmin')) {
      new Policy(this, 'PostConfirmationPoolAccess', {
        roles: [this.postConfirmation.role!],
        statements: [new PolicyStatement({ actions: USER_POOL_ADMIN_ACTIONS, resources: [this.userPool.userPoolArn] })],
      });
    }

    this.userPoolClient = this.userPool.addClient('WebClient', {
      authFlows: { userPassword: true, userSrp: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    this.globalAdmins = this.addGlobalAdmins(props.globalAdminEmails);

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPoolClient.userPoolClientId });
  }

  /**
   * The group `global-admins` and, for each e-mail of context `globalAdminEmails`, a deploy-time call that adds
   * that user to it (AdminAddUserToGroup; a user who has not signed up yet is skipped — the same list reaches
   * the handlers as GLOBAL_ADMIN_EMAILS, so they are platform admins anyway, and the next deploy adds them).
   * One resource per e-mail, named by a hash of it, so reordering the list changes nothing and removing an
   * e-mail removes that user from the group.
   */
  private addGlobalAdmins(globalAdminEmails: string): CfnUserPoolGroup {
    const group = new CfnUserPoolGroup(this, 'GlobalAdminsGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: GLOBAL_ADMIN_GROUP,
      description: 'Platform administrators: the admin area with statistics and per-company quotas',
    });
    const emails = [...new Set(globalAdminEmails.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean))];
    for (const email of emails) {
      const call = (action: 'adminAddUserToGroup' | 'adminRemoveUserFromGroup') => ({
        service: 'CognitoIdentityServiceProvider',
        action,
        parameters: { UserPoolId: this.userPool.userPoolId, Username: email, GroupName: GLOBAL_ADMIN_GROUP },
        physicalResourceId: PhysicalResourceId.of(`${GLOBAL_ADMIN_GROUP}:${email}`),
        ignoreErrorCodesMatching: 'UserNotFoundException|ResourceNotFoundException',
      });
      const id = createHash('sha256').update(email).digest('hex').slice(0, 12);
      const member = new AwsCustomResource(this, `GlobalAdmin${id}`, {
        onCreate: call('adminAddUserToGroup'),
        onUpdate: call('adminAddUserToGroup'),
        onDelete: call('adminRemoveUserFromGroup'),
        policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.userPool.userPoolArn] }),
        installLatestAwsSdk: false,
      });
      member.node.addDependency(group);
    }
    return group;
  }
}
