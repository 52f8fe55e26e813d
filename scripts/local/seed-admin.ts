/**
 * Demo data of the platform admin area: two more customer accounts (each with its own company), so the
 * demo account — a platform admin locally — sees several rows, owners and quotas on /admin, and each company's
 * usage by month. Documents cannot be uploaded into months that are over, so the months before this one are
 * written as the usage items the upload path keeps (`USAGE#<yyyy-mm>`, with the quota each month was counted
 * against), with the companies created that long ago.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { businessMonth, monthsUpTo } from '../../shared/business-time';
import { accessTokenOf, registerUser } from './seed';
import type { LocalStack } from './stack';

export const DEMO_CUSTOMERS = [
  {
    email: 'rasa@baltic-foods.example',
    password: 'Demo12345',
    name: 'Rasa',
    surname: 'Petraitė',
    company: 'Baltic Foods UAB',
    company_code: '304112233',
    /**
     * Documents of the months before this one, the latest first, how many of them were copies, and the quota the
     * month was counted against (today's, the default 500, since two months ago).
     */
    past_usage: [
      [212, 4, 500],
      [187, 2, 500],
      [240, 9, 250],
      [198, 0, 250],
      [176, 3, 200],
    ],
  },
  {
    email: 'jonas@nordic-parts.example',
    password: 'Demo12345',
    name: 'Jonas',
    surname: 'Kazlauskas',
    company: 'Nordic Parts UAB',
    company_code: '305998877',
    // The month without documents has no usage item: it shows today's quota.
    past_usage: [
      [41, 1, 500],
      [0, 0, 0],
      [37, 0, 100],
    ],
  },
] as const;

/** Moves a company's creation to `createdAt`, with its place in the admin's list (gsi2, newest first). */
export async function setCompanyCreatedAt(companyId: string, createdAt: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.company(companyId),
      UpdateExpression: 'SET created_at = :at, gsi2sk = :sortKey',
      ExpressionAttributeValues: { ':at': createdAt, ':sortKey': keys.companiesIndex(createdAt, companyId).gsi2sk },
    }),
  );
}

async function seedPastUsage(stack: LocalStack, customer: (typeof DEMO_CUSTOMERS)[number]): Promise<void> {
  const token = await accessTokenOf(stack, customer);
  const res = await fetch(`${stack.apiUrl}/companies`, { headers: { authorization: `Bearer ${token}` } });
  const companyId = ((await res.json()) as { items: { company_id: string }[] }).items[0]!.company_id;
  const months = monthsUpTo(businessMonth(new Date()), customer.past_usage.length + 1).slice(1);
  const table = process.env.TABLE_NAME;
  // Created in the first of those months: the admin's list orders companies by it (newest first), the usage card
  // shows no month before it.
  const createdAt = `${months[months.length - 1]!}-03T09:00:00.000Z`;
  await setCompanyCreatedAt(companyId, createdAt);
  for (const [i, [used, duplicated, quota]] of customer.past_usage.entries()) {
    if (used === 0) continue;
    await ddb().send(
      new PutCommand({
        TableName: table,
        Item: {
          ...keys.companyUsage(companyId, months[i]!),
          used_documents: used,
          duplicated_documents: duplicated,
          quota_taken: used,
          reserved_documents: 0,
          available_documents: quota,
        },
      }),
    );
  }
}

export async function seedAdminDemo(stack: LocalStack): Promise<void> {
  for (const { past_usage: _, ...customer } of DEMO_CUSTOMERS) await registerUser(stack, customer);
  for (const customer of DEMO_CUSTOMERS) await seedPastUsage(stack, customer);
}
