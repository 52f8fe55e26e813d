import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import { triggerHandlers } from '../../shared/routes';
import { GLOBAL_ADMIN_GROUP } from '../../shared/constants';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import { CODE_MAIL, CODE_PLACEHOLDER } from '../../shared/code-mail';
import { userPoolEmail, userPoolVerification } from '../../infra/stacks/auth-stack';
import { GLOBAL_ADMINS, MAIL_FROM, newApp, logicalIdOf, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('AuthStack', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  it('sends sign-up codes and password resets through SES, from the context sender (mailFrom)', () => {
    s.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: {
        EmailSendingAccount: 'DEVELOPER',
        From: MAIL_FROM,
        SourceArn: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':ses:eu-west-1:'), ':identity/no-reply@example.com'])] },
      },
    });
  });

  it('verifies the SES sender by its domain identity when context sesIdentity names one', () => {
    const email = userPoolEmail(MAIL_FROM, 'example.com', 'eu-west-1')!;
    const stack = new Stack(newApp(), 'PoolMail', { env: { region: 'eu-west-1', account: '123456789012' } });
    new UserPool(stack, 'Pool', { email });
    Template.fromStack(stack).hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: {
        EmailSendingAccount: 'DEVELOPER',
        From: 'Receipts <no-reply@example.com>',
        SourceArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-1:123456789012:identity/example.com']] },
      },
    });
    expect(userPoolEmail('', undefined, 'eu-west-1')).toBeUndefined();
  });

  it('mails codes (sign-up, resend, forgotten password) under the product name, the same mail local mode sends', () => {
    expect(CODE_MAIL.subject).toContain('Receipts Capture');
    expect(CODE_MAIL.body).toContain('Receipts Capture');
    expect(CODE_MAIL.body).toContain(CODE_PLACEHOLDER);
    s.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      VerificationMessageTemplate: { DefaultEmailOption: 'CONFIRM_WITH_CODE', EmailSubject: CODE_MAIL.subject, EmailMessage: CODE_MAIL.body },
      EmailVerificationSubject: CODE_MAIL.subject,
      EmailVerificationMessage: CODE_MAIL.body,
    });
  });

  it('keeps Cognito own code mail without an SES sender (a custom message needs EmailSendingAccount DEVELOPER)', () => {
    const stack = new Stack(newApp(), 'PoolNoSes', { env: { region: 'eu-west-1', account: '123456789012' } });
    new UserPool(stack, 'Pool', { userVerification: userPoolVerification(undefined) });
    const pool = Object.values(Template.fromStack(stack).findResources('AWS::Cognito::UserPool'))[0] as { Properties: Record<string, unknown> };
    expect(pool.Properties.EmailVerificationSubject).toBe('Verify your new account');
    expect(JSON.stringify(pool.Properties)).not.toContain('Receipts Capture');
  });

  it('is in eu-west-1', () => {
    expect(s.stacks.auth.region).toBe('eu-west-1');
  });

  it('has one user pool: e-mail as username, self sign-up, verified e-mail, recovery by e-mail', () => {
    s.auth.resourceCountIs('AWS::Cognito::UserPool', 1);
    s.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      UsernameConfiguration: { CaseSensitive: false },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    });
  });

  it('requires passwords of 8+ characters with upper case, lower case and digits', () => {
    s.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 8,
          RequireUppercase: true,
          RequireLowercase: true,
          RequireNumbers: true,
          RequireSymbols: false,
        }),
      },
    });
  });

  it.each(Object.values(COGNITO_ATTRIBUTES))('has the mutable custom string attribute %s', (attribute) => {
    s.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      Schema: Match.arrayWith([
        Match.objectLike({ Name: attribute.replace(/^custom:/, ''), AttributeDataType: 'String', Mutable: true }),
      ]),
    });
  });

  it('wires the PostConfirmation trigger to the trigger handler, and lets Cognito invoke it', () => {
    const functions = resourcesOf(s.auth, 'AWS::Lambda::Function');
    const [triggerId] = Object.entries(functions).find(([, f]) => String(f.Properties.Description).includes('PostConfirmation'))!;
    expect(s.stacks.auth.postConfirmation.handlerPath).toBe(triggerHandlers.postConfirmation);
    s.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: { PostConfirmation: { 'Fn::GetAtt': [triggerId, 'Arn'] } },
    });
    s.auth.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] },
    });
  });

  it('wires the PreSignUp trigger to its handler with the table, and lets Cognito invoke it', () => {
    const functions = resourcesOf(s.auth, 'AWS::Lambda::Function');
    const [triggerId, trigger] = Object.entries(functions).find(([, f]) => String(f.Properties.Description).includes('PreSignUp'))!;
    expect(s.stacks.auth.preSignUp.handlerPath).toBe(triggerHandlers.preSignUp);
    expect((trigger.Properties as { Environment: { Variables: unknown } }).Environment.Variables).toMatchObject({ TABLE_NAME: expect.anything(), STAGE: 'aws' });
    s.auth.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: { PreSignUp: { 'Fn::GetAtt': [triggerId, 'Arn'] } },
    });
    s.auth.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] },
    });
  });

  it('gives the trigger the table (environment and read/write grant)', () => {
    s.auth.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('PostConfirmation'),
      Environment: { Variables: Match.objectLike({ TABLE_NAME: Match.anyValue(), STAGE: 'aws' }) },
    });
    s.auth.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['dynamodb:Query', 'dynamodb:PutItem']), Effect: 'Allow' })]),
      },
    });
  });

  it('has an app client for the SPA: USER_PASSWORD_AUTH + SRP, no secret', () => {
    s.auth.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    s.auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
      GenerateSecret: false,
      PreventUserExistenceErrors: 'ENABLED',
    });
  });

  it('has the global-admins group and adds each globalAdminEmails user to it at deploy time', () => {
    const poolRef = { Ref: logicalIdOf(s.stacks.auth.userPool) };
    s.auth.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: GLOBAL_ADMIN_GROUP, UserPoolId: poolRef });
    const members = Object.values(s.auth.findResources('Custom::AWS'));
    const emails = GLOBAL_ADMINS.split(',');
    expect(members).toHaveLength(emails.length);
    const created = members.map((m) => JSON.stringify(m.Properties.Create));
    for (const email of emails) {
      const call = created.find((c) => c.includes(email));
      expect(call, email).toBeDefined();
      expect(call).toContain('adminAddUserToGroup');
      expect(call).toContain(GLOBAL_ADMIN_GROUP);
      expect(call).toContain('UserNotFoundException');
    }
    for (const m of members) {
      expect(JSON.stringify(m.Properties.Delete)).toContain('adminRemoveUserFromGroup');
      expect(m.DependsOn).toEqual(expect.arrayContaining([logicalIdOf(s.stacks.auth.globalAdmins)]));
    }
    // The calls may touch this pool only.
    s.auth.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 'cognito-idp:AdminAddUserToGroup', Resource: { 'Fn::GetAtt': [logicalIdOf(s.stacks.auth.userPool), 'Arn'] } }),
        ]),
      },
    });
  });

  it('outputs the pool id and client id', () => {
    s.auth.hasOutput('UserPoolId', {});
    s.auth.hasOutput('UserPoolClientId', {});
  });
});
