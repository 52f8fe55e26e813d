import { it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { testBundle, newApp, fakeWebDist, GLOBAL_ADMINS } from './synth';
import { handlerEntries } from '../../infra/build/handler-entries';
import { createReceiptsStacks } from '../../infra/stacks/receipts-stacks';
it('synth', async () => {
  let t = Date.now();
  const bundle = await testBundle();
  console.log('bundle', Date.now() - t, bundle.fromCache); t = Date.now();
  const stacks = createReceiptsStacks(newApp(), { bundle, entries: handlerEntries(), globalAdminEmails: GLOBAL_ADMINS, webDistDir: fakeWebDist() });
  console.log('construct', Date.now() - t); t = Date.now();
  Template.fromStack(stacks.web); console.log('web', Date.now() - t); t = Date.now();
  Template.fromStack(stacks.api); console.log('api', Date.now() - t); t = Date.now();
  Template.fromStack(stacks.data); console.log('data', Date.now() - t); t = Date.now();
}, 120000);
