import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

/** Requests per source IP in 5 minutes before WAF blocks that IP (sign-up, sign-in, code and password-reset calls). */
export const WAF_RATE_LIMIT_PER_5_MINUTES = 300;

export interface AuthWafProps {
  userPool: IUserPool;
}

/**
 * Optional (context `waf=true`): a regional WAF web ACL with a rate-based rule per source IP, on the Cognito user
 * pool, where sign-up, sign-in and password resets are answered. API Gateway HTTP APIs cannot be associated with
 * WAF (REST APIs, ALBs, AppSync and Cognito can); the HTTP API is protected by its stage throttling
 * (infra/constructs/api-protection.ts). A web ACL costs about 5 USD a month plus 1 USD per rule, hence optional.
 */
export class AuthWaf extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: AuthWafProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'ReceiptsAuthWebAcl', sampledRequestsEnabled: true },
      rules: [
        {
          name: 'RatePerIp',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: WAF_RATE_LIMIT_PER_5_MINUTES, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
          visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'ReceiptsAuthRatePerIp', sampledRequestsEnabled: true },
        },
      ],
    });
    new CfnWebACLAssociation(this, 'UserPoolAssociation', { resourceArn: props.userPool.userPoolArn, webAclArn: this.webAcl.attrArn });
  }
}
