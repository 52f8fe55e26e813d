/**
 * A deployment that receives mail for its own domain (`cdk deploy -c emailInDomain=in.example.com` sets
 * EMAIL_IN_DOMAIN on the functions): the API shows every Email-in address at that domain, the addresses stay stored
 * (and claimed) as `<local>@in.receipts.local`, and mail to the shown address reaches the company.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lambdas/adapters/ddb/client';
import { keys } from '../../lambdas/adapters/ddb/keys';
import { EMAIL_IN_DOMAIN } from '../../shared/constants';
import { registerUser } from '../../scripts/local/seed';
import { addMembership, apiClient, newUser, registeredUser, signIn, startTestStack, subOf, type TestStack } from '../support/local-stack';

const DEPLOYED = 'in.example.com';
const PLATFORM_ADMIN_EMAIL = 'domain-admin@example.com';

type Api = ReturnType<typeof apiClient>;
type CompanyItem = { company_id: string; email: string };

async function claimOf(address: string) {
  return (await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.emailIn(address) }))).Item;
}

async function pdf(line: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(line, { x: 50, y: 780, size: 14, font });
  return Buffer.from(await doc.save());
}

describe(`Email-in addresses with a deployed domain (EMAIL_IN_DOMAIN=${DEPLOYED})`, () => {
  let t: TestStack;
  let admin: Api;
  let adminToken: string;
  let adminCompanyId: string;
  beforeAll(async () => {
    t = await startTestStack({ emailInDomain: DEPLOYED, globalAdminEmails: [PLATFORM_ADMIN_EMAIL] });
    const user = { ...newUser('domainadmin'), email: PLATFORM_ADMIN_EMAIL };
    await registerUser(t.stack, user);
    adminToken = await signIn(t.stack, user);
    admin = apiClient(t.stack.apiUrl, adminToken);
    adminCompanyId = ((await admin.get('/companies')).body as { items: CompanyItem[] }).items[0]!.company_id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function companyEmail(api: Api, companyId: string): Promise<string> {
    const res = await api.get('/companies');
    expect(res.status).toBe(200);
    return (res.body as { items: CompanyItem[] }).items.find((c) => c.company_id === companyId)!.email;
  }

  it('GET /companies, POST /company and the platform admin’s list show the deployed domain; the claim stays stored as it was', async () => {
    const shown = await companyEmail(admin, adminCompanyId);
    expect(shown).toMatch(new RegExp(`^[a-z0-9-]+@${DEPLOYED.replace(/\./g, '\\.')}$`));
    const local = shown.split('@')[0]!;
    expect(await claimOf(`${local}@${EMAIL_IN_DOMAIN}`)).toMatchObject({ company_id: adminCompanyId });
    expect(await claimOf(shown)).toBeUndefined();

    const created = await admin.post('/company', { company_name: 'Second Domain UAB', code: `D${Date.now()}` });
    expect(created.status).toBe(201);
    const second = created.body as CompanyItem;
    expect(second.email.endsWith(`@${DEPLOYED}`)).toBe(true);
    expect(await claimOf(second.email.replace(`@${DEPLOYED}`, `@${EMAIL_IN_DOMAIN}`))).toMatchObject({ company_id: second.company_id });

    const listed = await admin.get('/admin/companies');
    expect(listed.status).toBe(200);
    const items = (listed.body as { items: CompanyItem[] }).items;
    expect(items.find((c) => c.company_id === adminCompanyId)?.email).toBe(shown);
    expect(items.find((c) => c.company_id === second.company_id)?.email).toBe(second.email);
    expect((await admin.get(`/admin/companies/${adminCompanyId}`)).body).toMatchObject({ email: shown });
  });

  it('the team list and a changed prefix show the deployed domain; the prefix saved is the local part only', async () => {
    const member = await registeredUser(t.stack, 'domainmember');
    const memberId = subOf(member.token);
    await addMembership(memberId, adminCompanyId, 'basic');
    const q = `?company_id=${adminCompanyId}`;
    const companyAddress = await companyEmail(admin, adminCompanyId);

    const users = (await admin.get(`/company/users${q}`)).body as { items: { user_id: string; email: string; email_prefix: string }[] };
    const owner = users.items.find((u) => u.user_id === subOf(adminToken))!;
    expect(owner).toMatchObject({ email: companyAddress, email_prefix: companyAddress.split('@')[0] });

    const prefix = `rasa.${Date.now().toString(36)}`;
    const changed = await admin.put(`/company/users/${memberId}${q}`, { email_prefix: prefix });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ email: `${prefix}@${DEPLOYED}`, email_prefix: prefix });
    // The claim is the stored form; a prefix typed with a domain is refused (the form sends the local part).
    expect(await claimOf(`${prefix}@${EMAIL_IN_DOMAIN}`)).toMatchObject({ company_id: adminCompanyId, user_id: memberId });
    expect((await admin.put(`/company/users/${memberId}${q}`, { email_prefix: `${prefix}@${DEPLOYED}` })).status).toBe(422);

    const again = (await admin.get(`/company/users${q}`)).body as { items: { user_id: string; email: string }[] };
    expect(again.items.find((u) => u.user_id === memberId)?.email).toBe(`${prefix}@${DEPLOYED}`);
  });

  it('mail to the shown address (and to the stored one) becomes documents of the company; the email panel shows the shown address', async () => {
    const { api, companyId } = await registeredUser(t.stack, 'domainmail');
    const shown = await companyEmail(api, companyId);
    expect(shown.endsWith(`@${DEPLOYED}`)).toBe(true);
    const transport = nodemailer.createTransport({ host: t.stack.smtp.host, port: t.stack.smtp.port, secure: false, ignoreTLS: true });
    const send = async (to: string, subject: string) => {
      const raw = await new MailComposer({
        from: 'billing@supplier.example',
        to,
        subject,
        attachments: [{ filename: `${subject}.pdf`, content: await pdf(`${subject} Total 3.00 EUR`), contentType: 'application/pdf' }],
      })
        .compile()
        .build();
      await transport.sendMail({ envelope: { from: 'billing@supplier.example', to: [to] }, raw });
    };
    await send(shown, 'deployed');
    await send(shown.replace(`@${DEPLOYED}`, `@${EMAIL_IN_DOMAIN}`), 'stored');
    await t.stack.emailJobs.idle();
    await t.stack.jobs.idle();

    const docs = ((await api.get(`/receipts?company_id=${companyId}`)).body as { items: { original_file_name: string; email_id: string | null }[] }).items;
    expect(docs.map((d) => d.original_file_name).sort()).toEqual(['deployed.pdf', 'stored.pdf']);
    for (const d of docs) {
      const email = await api.get(`/emails/${d.email_id}?company_id=${companyId}`);
      expect(email.status).toBe(200);
      expect(email.body).toMatchObject({ to: shown });
    }
  }, 180_000);
});
