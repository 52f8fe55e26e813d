/**
 * The CDK app (`npx cdk synth`, `npx cdk deploy --all [-c globalAdminEmails=a@b.c,d@e.f] [-c mailFrom=no-reply@your.domain]`),
 * region eu-west-1.
 * Synthesis is offline: no lookups. Handlers are bundled first, in one esbuild run (infra/build/bundle-handlers.ts).
 */
import { App, Validations } from 'aws-cdk-lib';
import { bundleHandlers } from '../build/bundle-handlers';
import { allHandlers, handlerEntries } from '../build/handler-entries';
import { WEB_DIST_DIR } from '../build/paths';
import { createReceiptsStacks, driveClientsFrom, globalAdminEmailsFrom } from '../stacks/receipts-stacks';
import { hasWebBuild } from '../stacks/web-content-stack';
import { ReceiptsNagChecks } from '../nag';

const app = new App();
// Google's client secret stays in AWS Secrets Manager: the context names the secret (googleClientSecretName); a
// plaintext googleClientSecret is refused here, before bundling.
const driveClients = driveClientsFrom((key) => app.node.tryGetContext(key));
const entries = handlerEntries();
const bundle = await bundleHandlers({ handlers: allHandlers(entries) });

if (!hasWebBuild(WEB_DIST_DIR)) {
  console.warn('web/dist has no index.html: only /config.json is deployed to the SPA bucket (run `npm run build:web` first).');
}

createReceiptsStacks(app, {
  bundle,
  entries,
  globalAdminEmails: globalAdminEmailsFrom(app.node.tryGetContext('globalAdminEmails')),
  webDistDir: WEB_DIST_DIR,
  emailInDomain: app.node.tryGetContext('emailInDomain') as string | undefined,
  mailFrom: String(app.node.tryGetContext('mailFrom') ?? '').trim(),
  sesIdentity: String(app.node.tryGetContext('sesIdentity') ?? '').trim() || undefined,
  // Operations: alarm e-mail and the optional WAF web ACL.
  alarmEmail: String(app.node.tryGetContext('alarmEmail') ?? '').trim() || undefined,
  waf: ['true', '1', 'yes'].includes(String(app.node.tryGetContext('waf') ?? '').toLowerCase()),
  // Google Drive and Dropbox imports (docs/integrations.md): without them the imports answer 'Connection error!'.
  driveClients,
});

if (!app.node.tryGetContext('mailFrom')) {
  console.warn(
    'No -c mailFrom=<SES-verified sender>: invitation mail cannot be sent from this deployment, and sign-up codes ' +
      "and password resets use Cognito's own sender (about 50 messages a day).",
  );
}

// cdk-nag's AwsSolutions pack at synthesis (`-c nag=true`; the infra tests always run it).
if (['true', '1', 'yes'].includes(String(app.node.tryGetContext('nag') ?? '').toLowerCase())) {
  Validations.of(app).addPlugins(new ReceiptsNagChecks(app));
}

if (!app.node.tryGetContext('alarmEmail')) {
  console.warn('No -c alarmEmail=<operator e-mail>: alarms go to the SNS topic without a subscriber.');
}

app.synth();
