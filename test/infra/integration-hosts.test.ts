import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_NAMES } from '../../lambdas/runtime/env';
import { removeTempDirs, resourcesOf, SYNTH_TIMEOUT_MS, synthReceipts, type Synth } from './synth';

afterAll(removeTempDirs);

/**
 * FTP / SQL hosts on internal addresses are allowed only where a deployment sets INTEGRATIONS_ALLOW_PRIVATE_HOSTS
 * (local mode and the tests, scripts/local/stack.ts); the deployed functions must never carry it
 * (lambdas/core/integrations/host-check.ts, docs/security.md).
 */
describe('integration hosts: no deployed function allows internal addresses', () => {
  let s: Synth;
  let templates: [string, Template][];
  beforeAll(async () => {
    s = await synthReceipts();
    templates = Object.entries(s.stacks).map(([name, stack]) => [name, Template.fromStack(stack)]);
  }, SYNTH_TIMEOUT_MS);

  it('sets INTEGRATIONS_ALLOW_PRIVATE_HOSTS on no function of any stack, nor anywhere else in a template', () => {
    const name = 'INTEGRATIONS_ALLOW_PRIVATE_HOSTS';
    // Local mode's only: not among the names CDK gives every handler.
    expect(Object.values(ENV_NAMES)).not.toContain(name);
    let functionsWithEnvironment = 0;
    for (const [stack, template] of templates) {
      for (const [id, fn] of Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))) {
        const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
        if (Object.keys(variables).length > 0) functionsWithEnvironment += 1;
        expect(Object.keys(variables), `${stack} ${id}`).not.toContain(name);
      }
      expect(JSON.stringify(template.toJSON()), stack).not.toContain(name);
    }
    // The functions that connect to company hosts are among those looked at: POST /company/service, the export job.
    expect(functionsWithEnvironment).toBeGreaterThan(10);
    const processing = templates.find(([n]) => n === 'processing')![1];
    expect(JSON.stringify(processing.toJSON())).toContain('EXPORT_QUEUE_URL');
  });
});
