/**
 * npm run search:backfill — indexes the documents written before the document search index (or under
 * an older index version) and removes search items of older versions; then writes again the master-data
 * records (suppliers, customers, categories, items) stored under an older name-search word rule; then writes the
 * company-code guards of companies created before them (one company per code and creator, A8); then adds the email
 * records received before their company index to it (E9, so a deleted company's purge finds them). Runs against the table named
 * by TABLE_NAME with the SDK's usual credentials and region, reading the content JSON of documents written before
 * index version 4 from the bucket named by DOCUMENTS_BUCKET (after `cdk deploy`:
 * `TABLE_NAME=<DataStack table> DOCUMENTS_BUCKET=<StorageStack documents bucket> AWS_REGION=eu-west-1 npm run search:backfill`). Local mode runs the
 * same backfill at every start. Safe to run while the API serves requests, and to run again.
 */
import { backfillEmailCompanyIndex } from '../../lambdas/adapters/ddb/email-backfill';
import { backfillCompanyCodeGuards, backfillMasterSearch, backfillSearchIndex } from '../../lambdas/adapters/ddb/search-backfill';

if (!process.env.TABLE_NAME || !process.env.DOCUMENTS_BUCKET) {
  console.error('Set TABLE_NAME, DOCUMENTS_BUCKET (and the AWS region and credentials) first.');
  process.exit(2);
}

const log = (message: string) => console.log(message);

async function main() {
  const documents = await backfillSearchIndex({ log });
  console.log(`done: ${documents.indexed} documents indexed, ${documents.skipped} changed meanwhile, ${documents.removed} old search items removed`);
  const master = await backfillMasterSearch({ log });
  console.log(`done: ${master.rewritten} master-data records indexed by the current word rule, ${master.skipped} changed meanwhile`);
  const guards = await backfillCompanyCodeGuards({ log });
  console.log(`done: ${guards.written} company-code guards written, ${guards.duplicates} companies sharing a code with another of their creator left without one`);
  const emails = await backfillEmailCompanyIndex({ log });
  console.log(`done: ${emails.indexed} email records added to their company's index`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
