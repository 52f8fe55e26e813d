/**
 * npm run search:backfill — indexes the documents written before the document search index (or under
 * an older index version) and removes search items of older versions. Runs against the table named
 * by TABLE_NAME with the SDK's usual credentials and region (after `cdk deploy`:
 * `TABLE_NAME=<DataStack table> AWS_REGION=eu-west-1 npm run search:backfill`). Local mode runs the
 * same backfill at every start. Safe to run while the API serves requests, and to run again.
 */
import { backfillSearchIndex } from '../../lambdas/adapters/ddb/search-backfill';

if (!process.env.TABLE_NAME) {
  console.error('Set TABLE_NAME (and the AWS region and credentials) first.');
  process.exit(2);
}

backfillSearchIndex({ log: (message) => console.log(message) }).then(
  (result) => {
    console.log(`done: ${result.indexed} documents indexed, ${result.skipped} changed meanwhile, ${result.removed} old search items removed`);
    process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
