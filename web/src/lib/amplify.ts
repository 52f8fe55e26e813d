import { Amplify } from 'aws-amplify';
import type { AppConfig } from './config';

let configured = false;

/** Configure Amplify Auth once from /config.json. In local mode userPoolEndpoint points at the Cognito stand-in. */
export function configureAmplify(config: AppConfig): void {
  if (configured) return;
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
  configured = true;
}
