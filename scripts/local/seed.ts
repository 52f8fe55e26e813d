import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  SignUpCommand,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_ATTRIBUTES } from '../../shared/schemas/auth';
import { sendDemoEmail } from './seed-email';
import type { LocalStack } from './stack';
import { LOCAL_CLIENT_ID } from './stack';
import { seedDemoColleague, seedPendingInvitation } from './seed-team';

export const DEMO_USER = {
  email: 'demo@receipts.local',
  password: 'Demo12345',
  name: 'Demo',
  surname: 'User',
  company: 'Demo Company UAB',
  company_code: '300000001',
};

/**
 * Registers a user through the local Cognito exactly as the web app does (sign-up, then the
 * printed confirmation code), so the post-confirmation trigger creates profile and company.
 * Returns false when the user already exists.
 */
export async function registerUser(stack: LocalStack, user: typeof DEMO_USER): Promise<boolean> {
  const client = new CognitoIdentityProviderClient({
    endpoint: stack.cognitoEndpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(
      new SignUpCommand({
        ClientId: LOCAL_CLIENT_ID,
        Username: user.email,
        Password: user.password,
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: COGNITO_ATTRIBUTES.name, Value: user.name },
          { Name: COGNITO_ATTRIBUTES.surname, Value: user.surname },
          { Name: COGNITO_ATTRIBUTES.company, Value: user.company },
          { Name: COGNITO_ATTRIBUTES.companyCode, Value: user.company_code },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof UsernameExistsException) return false;
    throw error;
  } 
  const code = stack.cognito.lastCode(user.email);
  if (!code) throw new Error(`no confirmation code was issued for ${user.email}`);
  await client.send(new ConfirmSignUpCommand({ ClientId: LOCAL_CLIENT_ID, Username: user.email, ConfirmationCode: code }));
  client.destroy();
  return true;
}

export interface UploadRequest {
  company_id: string;
  original_file_name: string;
  receipt_type?: 'receipt' | 'invoice';
  type?: 'single' | 'multiple';
  content_type?: string;
  size?: number;
  user_id?: string;
  notes?: string;
}

/** GET /upload/document, then PUT of the bytes to the presigned URL, as the web app does. */
export async function uploadThroughApi(apiUrl: string, token: string, params: UploadRequest, bytes: Uint8Array) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries({ size: bytes.length || 1, ...params })) if (v !== undefined) query.set(k, String(v));
  const request = await fetch(`${apiUrl}/upload/document?${query}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await request.text();
  const body = text ? JSON.parse(text) : undefined;
  if (request.status !== 200) return { status: request.status, body, put: undefined, upload: undefined };
  const upload = body as { uploadURL: string; upload_id: string; key: string; headers: Record<string, string> };
  const put = await fetch(upload.uploadURL, { method: 'PUT', headers: upload.headers, body: new Blob([new Uint8Array(bytes)]) });
  return { status: request.status, body, put, upload };
}

const DEMO_DOCUMENTS = [
  { file: 'office-supplies-invoice.pdf', content_type: 'application/pdf', receipt_type: 'receipt' as const },
  { file: 'shop-receipt.jpg', content_type: 'image/jpeg', receipt_type: 'receipt' as const },
];

/** Signs in with the local Cognito and returns the access token. */
export async function accessTokenOf(stack: LocalStack, user: Pick<typeof DEMO_USER, 'email' | 'password'>): Promise<string> {
  const client = new CognitoIdentityProviderClient({
    endpoint: stack.cognitoEndpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const res = await client.send(
    new InitiateAuthCommand({
      ClientId: LOCAL_CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
    }),
  );
  client.destroy();
  const token = res.AuthenticationResult?.AccessToken;
  if (!token) throw new Error(`no access token for ${user.email}`);
  return token;
}

/**
 * First start: the demo account, its company, and a few sample documents uploaded through the
 * real upload path, so they are recognised by the local recogniser like any upload.
 */
export async function seedDemo(stack: LocalStack): Promise<{ created: boolean }> {
  const created = await registerUser(stack, DEMO_USER);
  if (!created) return { created };
  // Platform admin demo: more customers for /admin (the demo account is a platform admin locally).
  await (await import('./seed-admin')).seedAdminDemo(stack);
  const token = await accessTokenOf(stack, DEMO_USER);
  const companies = await fetch(`${stack.apiUrl}/companies`, { headers: { authorization: `Bearer ${token}` } });
  const company = ((await companies.json()) as { items: { company_id: string; email: string }[] }).items[0]!;
  const companyId = company.company_id;
  await seedDemoMasterData(stack.apiUrl, token, companyId);
  for (const doc of DEMO_DOCUMENTS) {
    const bytes = readFileSync(path.join(import.meta.dirname, 'demo', doc.file));
    const result = await uploadThroughApi(
      stack.apiUrl,
      token,
      { company_id: companyId, original_file_name: doc.file, content_type: doc.content_type, receipt_type: doc.receipt_type, type: 'single' },
      bytes,
    );
    if (!result.put?.ok) console.warn(`[local] demo document ${doc.file} was not uploaded (${result.status})`);
  }
  // Email-in: one invoice arrives by mail (saskaita-faktura.pdf) through the local SMTP server.
  await sendDemoEmail(stack, company.email).catch((error: unknown) => console.warn('[local] demo email was not sent', error));
  // Team and invitations: a second member, invited by the demo admin.
  await seedDemoColleague(stack, token, companyId).catch((error: unknown) =>
    console.warn(`[local] the demo colleague was not added: ${error instanceof Error ? error.message : String(error)}`),
  );
  // … and one invitation still waiting to be accepted.
  await seedPendingInvitation(stack, token, companyId).catch((error: unknown) =>
    console.warn(`[local] the demo invitation was not sent: ${error instanceof Error ? error.message : String(error)}`),
  );
  return { created };
}

// Master data: the demo company's categories, suppliers, customers and items (through the API, as a user keeps them).
const DEMO_CATEGORIES = [
  { name: 'Office supplies', category_code: '6110' },
  { name: 'Electricity', category_code: '6310' },
  { name: 'Fuel', category_code: '6420' },
  { name: 'Meals and entertainment', category_code: '6510' },
  { name: 'Software', category_code: '6130' },
];
/** The first supplier is the seller of the demo invoice office-supplies-invoice.pdf; the other demo sellers are new. */
const DEMO_SUPPLIERS = [
  { name: 'Northwind Office Supplies Ltd', code: '304567891', vat_id: 'LT123456715', street: '12 Harbour Street', city: 'Klaipeda', zipcode: 'LT-91234', country: 'LT', category: 'Office supplies', selected_date_format: 'DD/MM/YYYY' },
  { name: 'Ignitis UAB', code: '303383884', vat_id: 'LT100008860716', street: 'Laisvės pr. 10', city: 'Vilnius', zipcode: 'LT-04215', country: 'LT', category: 'Electricity' },
  { name: 'Circle K Lietuva UAB', code: '110019544', vat_id: 'LT100195417', city: 'Vilnius', country: 'LT', category: 'Fuel' },
  { name: 'Atlassian Pty Ltd', code: 'ATL-001', country: 'AU', category: 'Software', selected_date_format: 'YYYY-MM-DD' },
];
const DEMO_CUSTOMERS = [
  { name: 'Baltic Bytes UAB', code: '305112233', vat_id: 'LT100001919017', street: 'Gedimino pr. 9', city: 'Vilnius', zipcode: 'LT-01103', country: 'LT' },
  { name: 'Kauno Baldai UAB', code: '302445566', city: 'Kaunas', country: 'LT' },
  { name: 'Riga Print SIA', code: '40003123456', vat_id: 'LV40003123456', city: 'Riga', country: 'LV' },
];
const DEMO_ITEMS = [
  { name: 'Printer paper A4', words: ['paper', 'A4', 'popierius'] },
  { name: 'Toner cartridge', words: ['toner', 'cartridge', 'kasetė'] },
  { name: 'Coffee beans', words: ['coffee', 'kava'] },
  { name: 'Diesel', words: ['diesel', 'dyzelinas'] },
];

async function seedDemoMasterData(apiUrl: string, token: string, companyId: string): Promise<void> {
  const post = async (route: string, body: unknown) => {
    const res = await fetch(`${apiUrl}${route}?company_id=${encodeURIComponent(companyId)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) console.warn(`[local] demo ${route} was not created (${res.status})`);
    return res.status === 201 ? ((await res.json()) as { id?: string; name: string }) : undefined;
  };
  const categoryIds = new Map<string, string>();
  for (const c of DEMO_CATEGORIES) {
    const created = await post('/category', c);
    if (created?.id) categoryIds.set(c.name, created.id);
  }
  for (const { category, ...s } of DEMO_SUPPLIERS) await post('/stakeholder', { type: 'supplier', ...s, category_id: categoryIds.get(category) ?? null });
  for (const c of DEMO_CUSTOMERS) await post('/stakeholder', { type: 'customer', ...c });
  for (const item of DEMO_ITEMS) await post('/item', item);
}
