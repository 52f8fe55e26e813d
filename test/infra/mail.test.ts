import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_NAMES } from '../../lambdas/runtime/env';
import { SES_SEND_ACTIONS, awsNeedsOf, senderAddress } from '../../infra/constructs/grants';
import { logicalIdOf, MAIL_FROM, removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, string>> };

/** Team and invitations: invitation mail goes through SES v2 SendEmail, from the configured sender only. */
describe('outgoing mail (invitations)', () => {
  let s: Synth;
  beforeAll(async () => {
    s = await synthReceipts();
  }, SYNTH_TIMEOUT_MS);

  function statementsOf(roleLogicalId: string): Statement[] {
    return Object.values(resourcesOf(s.api, 'AWS::IAM::Policy'))
      .filter((p) => (p.Properties.Roles as Array<{ Ref?: string }>).some((r) => r.Ref === roleLogicalId))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  }
  const actionsOf = (st: Statement) => (Array.isArray(st.Action) ? st.Action : [st.Action]);

  it('maps the SES v2 client to the sesSend need', () => {
    expect([...awsNeedsOf('h', ['@aws-sdk/client-sesv2'])]).toEqual(['sesSend']);
    expect(senderAddress('Receipts <No-Reply@Example.com>')).toBe('no-reply@example.com');
  });

  it('grants ses:SendEmail to POST /invitation only, on SES identities, with the sender as ses:FromAddress', () => {
    const invite = s.stacks.api.routeFunctions.get('POST /invitation')!;
    expect(invite.awsNeeds.has('sesSend')).toBe(true);
    const sends = statementsOf(logicalIdOf(invite.role!)).filter((st) => actionsOf(st).some((a) => a.startsWith('ses:')));
    expect(sends).toHaveLength(1);
    expect(actionsOf(sends[0]!)).toEqual(SES_SEND_ACTIONS);
    expect(JSON.stringify(sends[0]!.Resource)).toMatch(/:ses:.*:identity\/\*/);
    expect(sends[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });

    for (const [key, fn] of s.stacks.api.routeFunctions) {
      if (key === 'POST /invitation') continue;
      expect(fn.awsNeeds.has('sesSend'), key).toBe(false);
      const any = statementsOf(logicalIdOf(fn.role!)).some((st) => actionsOf(st).some((a) => a.startsWith('ses:')));
      expect(any, key).toBe(false);
    }
  });

  it('grants the email-in job ses:SendEmail with the sender as ses:FromAddress, and gives it the sender (notices of mail not taken)', () => {
    const job = s.stacks.emailIn.receiveEmail!;
    expect(job.awsNeeds.has('sesSend')).toBe(true);
    const sends = Object.values(resourcesOf(s.emailIn, 'AWS::IAM::Policy'))
      .filter((p) => (p.Properties.Roles as Array<{ Ref?: string }>).some((r) => r.Ref === logicalIdOf(job.role!)))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .filter((st) => actionsOf(st).some((a) => a.startsWith('ses:')));
    expect(sends).toHaveLength(1);
    expect(actionsOf(sends[0]!)).toEqual(SES_SEND_ACTIONS);
    expect(sends[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });
    const vars = (resourcesOf(s.emailIn, 'AWS::Lambda::Function')[logicalIdOf(job)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(vars[ENV_NAMES.mailFrom]).toBe(MAIL_FROM);
  });

  it('gives the handler the sender (context mailFrom) and the site origin for links', () => {
    const invite = s.stacks.api.routeFunctions.get('POST /invitation')!;
    const vars = (resourcesOf(s.api, 'AWS::Lambda::Function')[logicalIdOf(invite)]!.Properties.Environment as {
      Variables: Record<string, unknown>;
    }).Variables;
    expect(vars[ENV_NAMES.mailFrom]).toBe(MAIL_FROM);
    expect(vars[ENV_NAMES.appUrl]).toBeDefined();
    expect(JSON.stringify(vars[ENV_NAMES.appUrl])).toMatch(/https:\/\/|DomainName/);
  });

  it('keeps the invitation-token routes public and the team routes behind the authorizer', () => {
    const routes = Object.values(resourcesOf(s.api, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties);
    const byKey = new Map(routes.map((r) => [r.RouteKey as string, r]));
    for (const key of ['GET /invitation/{token}', 'PUT /invitation/{token}']) expect(byKey.get(key)?.AuthorizationType ?? 'NONE', key).toBe('NONE');
    for (const key of ['POST /invitation', 'GET /company/users', 'PUT /company/users/{id}', 'DELETE /company/users/{id}']) {
      expect(byKey.get(key)?.AuthorizationType, key).toBe('JWT');
    }
  });
});
