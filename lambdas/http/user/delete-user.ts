import { deleteAccountSchema } from '../../../shared/schemas/user';
import { cognitoUserPool } from '../../adapters/cognito/user-pool';
import { driveDeps } from '../../adapters/drive/deps';
import { sqsPurgeQueue } from '../../adapters/sqs/purge-queue';
import { deleteOwnAccount } from '../../core/accounts/delete-account';
import { grantsOfDeletedCompany } from '../../core/drive-import/service';
import { httpHandler, requireCaller } from '../../runtime/http-handler';

/** DELETE /user: the caller deletes their own account (core/accounts/delete-account.ts); the body repeats its email. */
export const handler = httpHandler({
  route: 'DELETE /user',
  body: deleteAccountSchema,
  async run({ body, caller, deps, log }) {
    const c = requireCaller(caller);
    const drive = driveDeps(deps, log);
    return deleteOwnAccount(
      { ...deps, purgeQueue: sqsPurgeQueue, log, drive, grants: grantsOfDeletedCompany(drive), identity: cognitoUserPool },
      c.userId,
      body,
    );
  },
});
