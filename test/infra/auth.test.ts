import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import { triggerHandlers } from '../../shared/routes';
import { removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

describe('AuthStack', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

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

  it('outputs the pool id and client id', () => {
    s.auth.hasOutput('UserPoolId', {});
    s.auth.hasOutput('UserPoolClientId', {});
  });
});
