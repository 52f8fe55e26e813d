/**
 * cdk-nag (AwsSolutions pack) for the stacks: ReceiptsNagChecks runs the pack and honours the acknowledgements of
 * acknowledgeNagFindings below, each with its one-line reason. The infra tests run it on the whole app
 * (test/infra/operations.test.ts: zero unacknowledged errors); `npx cdk synth -c nag=true` runs it too.
 *
 * cdk-nag 3 matches an acknowledged finding by its exact id, which for IAM5 embeds the resolved resource (a
 * cross-stack reference's output name included). Acknowledgements here may therefore name a finding by pattern;
 * a rule without findings (e.g. L1) is acknowledged by its id.
 */
import { type CfnResource, Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks, NagRuleCompliance, type IApplyRule } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { HandlerFunction } from './constructs/handler-function';
import type { ReceiptsStacks } from './stacks/receipts-stacks';

interface Acknowledgement {
  /** Rule id, e.g. `AwsSolutions-IAM5`. */
  rule: string;
  /** For rules with findings: the findings (text inside the brackets) this covers; absent: the rule itself. */
  findings?: RegExp;
  reason: string;
}

const acknowledged = new WeakMap<IConstruct, Acknowledgement[]>();

/** Acknowledges a finding on `scope` and everything under it. */
export function acknowledge(scope: IConstruct, rule: string, reason: string, findings?: RegExp): void {
  if (!reason.trim()) throw new Error(`cdk-nag acknowledgement of ${rule} needs a reason`);
  acknowledged.set(scope, [...(acknowledged.get(scope) ?? []), { rule, reason, findings }]);
}

function isAcknowledged(node: IConstruct, rule: string, finding?: string): boolean {
  for (let c: IConstruct | undefined = node; c; c = c.node.scope) {
    for (const a of acknowledged.get(c) ?? []) {
      if (a.rule !== rule) continue;
      if (finding === undefined ? !a.findings : a.findings?.test(finding)) return true;
    }
  }
  return false;
}

/** The AwsSolutions pack with this module's acknowledgements. */
export class ReceiptsNagChecks extends AwsSolutionsChecks {
  protected applyRule(params: IApplyRule): void {
    const rule = `${this.readPackName}-${params.ruleSuffixOverride ?? params.rule.name}`;
    const original = params.rule;
    const filtered = (node: CfnResource) => {
      const result = original(node);
      if (Array.isArray(result)) {
        const kept = result.filter((finding) => !isAcknowledged(node, rule, finding));
        return kept.length > 0 ? kept : NagRuleCompliance.COMPLIANT;
      }
      if (result === NagRuleCompliance.NON_COMPLIANT && isAcknowledged(node, rule)) return NagRuleCompliance.COMPLIANT;
      return result;
    };
    Object.defineProperty(filtered, 'name', { value: original.name });
    super.applyRule({ ...params, rule: filtered });
  }
}

/** CDK's own Lambda-backed helpers (custom resources): their code, runtime and roles are CDK's. */
function cdkProvidedHelpers(stack: Stack): IConstruct[] {
  return stack.node.children.filter((c) =>
    /^(AWS679f53fac002430cb0da5b7982bd2287|BucketNotificationsHandler|Custom::CDKBucketDeployment|Custom::S3AutoDeleteObjects|LogRetention)/.test(c.node.id),
  );
}

/** Every acknowledged finding of the Receipts stacks, with its reason. */
export function acknowledgeNagFindings(stacks: ReceiptsStacks): void {
  const all = Object.values(stacks) as Stack[];
  for (const stack of all) {
    for (const helper of cdkProvidedHelpers(stack)) {
      acknowledge(helper, 'AwsSolutions-IAM4', 'CDK-provided custom resource handler: its role uses the basic execution policy for its logs', /.*/);
      acknowledge(helper, 'AwsSolutions-IAM5', 'CDK-provided custom resource handler: CDK scopes its grants to the resources it manages', /.*/);
      acknowledge(helper, 'AwsSolutions-L1', 'CDK-provided custom resource handler: CDK chooses and updates its runtime');
    }
    for (const c of stack.node.findAll()) {
      if (c instanceof HandlerFunction) {
        acknowledge(c, 'AwsSolutions-L1', 'Node.js 22 (LTS) is the runtime the handlers are built (esbuild target node22) and tested for');
      }
    }
  }
  // Handler roles (shared per set of needs, or a function's own).
  for (const stack of all) {
    acknowledge(
      stack,
      'AwsSolutions-IAM4',
      'Lambda execution roles use AWSLambdaBasicExecutionRole: CloudWatch Logs writes only',
      /^Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole$/,
    );
    acknowledge(stack, 'AwsSolutions-IAM5', 'X-Ray trace writes and Textract expense analysis have no resource-level permissions', /^Resource::\*$/);
    acknowledge(stack, 'AwsSolutions-IAM5', 'Objects of the documents bucket are per company and document: any key of that one bucket', /^Resource::.*DocumentsBucket.*\/\*$/);
    acknowledge(stack, 'AwsSolutions-IAM5', 'Live events post to any connection of the one WebSocket stage (connection ids are runtime values)', /^Resource::.*:execute-api:.*\/live\/\*\/@connections\/\*$/);
    acknowledge(stack, 'AwsSolutions-IAM5', 'SES SendEmail on this account’s identities, conditioned on the configured From address', /^Resource::arn:<AWS::Partition>:ses:.*:identity\/\*$/);
  }

  acknowledge(stacks.data.documentsBucket, 'AwsSolutions-S1', 'Access to documents is recorded by the API access logs; S3 server access logs would add a second bucket for no other reader');
  acknowledge(stacks.web.siteBucket, 'AwsSolutions-S1', 'Build output only, readable solely through CloudFront (origin access control)');
  acknowledge(stacks.web.distribution, 'AwsSolutions-CFR1', 'Companies and their accountants may work from any country');
  acknowledge(stacks.web.distribution, 'AwsSolutions-CFR2', 'Static SPA files only (a CloudFront web ACL must live in us-east-1); the API has stage throttling');
  acknowledge(stacks.web.distribution, 'AwsSolutions-CFR3', 'Static SPA files only; API calls are logged by the API access logs');
  acknowledge(stacks.web.distribution, 'AwsSolutions-CFR4', 'The default *.cloudfront.net certificate; a custom domain with TLSv1.2_2021 is a deployment choice');
  acknowledge(stacks.auth.userPool, 'AwsSolutions-COG1', 'The specification’s password policy: 8+ characters with upper case, lower case and digits, no symbol required');
  acknowledge(stacks.auth.userPool, 'AwsSolutions-COG2', 'The specification’s sign-up has no MFA step');
  acknowledge(stacks.auth.userPool, 'AwsSolutions-COG3', 'Threat protection is a paid feature plan; the optional WAF web ACL rate-limits the pool (-c waf=true)');
  acknowledge(stacks.auth.userPool, 'AwsSolutions-COG8', 'Threat protection (Plus feature plan) is a cost choice; the optional WAF web ACL rate-limits the pool (-c waf=true)');
  // Public and WebSocket routes: authorised in the handler, not by an API Gateway authorizer.
  for (const [key, route] of stacks.api.httpRoutes) {
    if (/^(GET|PUT) \/invitation\/\{token\}$/.test(key)) {
      acknowledge(route, 'AwsSolutions-APIG4', 'Public by the specification: the invitation token is the credential, checked by the handler');
    }
  }
  acknowledge(stacks.api.webSocketApi, 'AwsSolutions-APIG4', 'WebSocket $connect checks the access token itself (browsers cannot send an Authorization header); later routes act on that connection only');
}
