/**
 * Integrations through the real local API: POST /company/service with real connection tests against a real FTP
 * server (pyftpdlib) and the Rivile stand-in, then confirms with the send flag delivered by the real export job.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalFtpServer, type LocalFtpServer } from '../../scripts/local/ftp-server';
import { addMembership, apiClient, registeredUser, signIn, startTestStack, subOf, newUser, wholeTable, type TestStack } from '../support/local-stack';
import { registerUser } from '../../scripts/local/seed';
import { invoicePdf, SAMPLE_INVOICE, uploadDocument } from './content-fixtures';

type Api = ReturnType<typeof apiClient>;
type Company = Record<string, unknown> & { company_id: string; code: string };

const FTP_PASSWORD = 'Ftp-Secret-Pass-7781';
const RIVILE_KEY = 'RIVUSR1-0f3c9a7e5b2d4c1a';

/** Every file under a folder, relative paths. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

describe('integrations: credentials, FTP and Rivile exports', () => {
  let t: TestStack;
  let ftp: LocalFtpServer;
  let admin: Api;
  let companyId: string;
  let company: Company;
  const q = () => `company_id=${companyId}`;
  /** Every response body seen in this file, searched for the secrets at the end. */
  const seen: string[] = [];
  const record = <T extends { body: unknown }>(r: T) => {
    seen.push(JSON.stringify(r.body));
    return r;
  };
  const service = async (body: unknown, api: Api = admin, companyQuery = q()) => record(await api.post(`/company/service?${companyQuery}`, body));
  const ftpCreds = (password = FTP_PASSWORD) => ({ host: ftp.host, user: 'acme', password, port: ftp.port });
  const companyNow = async () => ((await admin.get('/companies')).body as { items: Company[] }).items.find((c) => c.company_id === companyId)!;

  async function confirmedDocument(name: string, issueDate = SAMPLE_INVOICE.date, more: { id: string; value: string }[] = []): Promise<string> {
    const id = await uploadDocument(t.stack, admin, companyId, await invoicePdf(), name);
    const c = (await admin.get(`/receipts/${id}/content?${q()}`)).body as { version: number };
    const res = await admin.post(`/receipt/${id}?${q()}&with_send=1`, {
      version: c.version,
      items: [
        { id: 'document_id', value: `${SAMPLE_INVOICE.number}-${name}` },
        { id: 'supplier_name', value: SAMPLE_INVOICE.supplier },
        { id: 'supplier_code', value: SAMPLE_INVOICE.supplierCode },
        { id: 'issue_date', value: issueDate },
        ...more,
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ receipt: { status: 'archive' } });
    await t.stack.exportJobs.idle(60_000);
    return id;
  }
  const historyOf = async (id: string) => ((await admin.get(`/receipts/${id}/history?${q()}`)).body as { items?: { name: string }[] } | { name: string }[]);
  const historyNames = async (id: string) => {
    const h = await historyOf(id);
    return (Array.isArray(h) ? h : (h.items ?? [])).map((e) => e.name);
  };

  beforeAll(async () => {
    t = await startTestStack({ exportRetry: { baseSeconds: 1, msPerDelaySecond: 20, maxAttempts: 3 }, rivileKeys: [RIVILE_KEY] });
    ftp = await startLocalFtpServer({ root: path.join(t.dataDir, 'ftp-home'), user: 'acme', password: FTP_PASSWORD });
    const u = await registeredUser(t.stack, 'integr');
    admin = u.api;
    companyId = u.companyId;
    company = await companyNow();
  }, 120_000);
  afterAll(async () => {
    await ftp?.stop();
    await t?.stop();
  });

  it('refuses a wrong FTP password with the server message on the host field; the flag stays off', async () => {
    const res = await service({ type: 'ftp_export', enabled: true, credential: ftpCreds('wrong-password') });
    expect(res.status).toBe(422);
    const body = res.body as { message: string; details: { path: string[]; message: string }[] };
    expect(body.message).toMatch(/530/);
    expect(body.details).toEqual([{ path: ['host'], message: body.message }]);
    expect((await companyNow()).ftp_export).toBe(false);
    // Missing fields: the pop-up's messages.
    const missing = await service({ type: 'ftp_export', enabled: true, credential: { host: ftp.host } });
    expect(missing.status).toBe(422);
    expect((missing.body as { details: { path: string[]; message: string }[] }).details).toEqual(
      expect.arrayContaining([
        { path: ['user'], message: 'Required field' },
        { path: ['password'], message: 'Required field' },
      ]),
    );
    // Nothing stored: switching on without credentials is refused.
    const none = await service({ type: 'ftp_export', enabled: true });
    expect(none.status).toBe(422);
    expect((await companyNow()).ftp_export).toBe(false);
  });

  it('lets only the company admin change integrations: anonymous 401, basic member and another company 403', async () => {
    const anon = apiClient(t.stack.apiUrl);
    expect((await anon.post(`/company/service?${q()}`, { type: 'display_imported_categories', enabled: true })).status).toBe(401);
    const other = await registeredUser(t.stack, 'stranger');
    expect((await service({ type: 'display_imported_categories', enabled: true }, other.api)).status).toBe(403);
    const basicUser = newUser('basic');
    await registerUser(t.stack, basicUser);
    const basicToken = await signIn(t.stack, basicUser);
    await addMembership(subOf(basicToken), companyId, 'basic');
    const basic = apiClient(t.stack.apiUrl, basicToken);
    expect((await service({ type: 'ftp_export', enabled: true, credential: ftpCreds() }, basic)).status).toBe(403);
    expect((await service({ type: 'display_imported_categories', enabled: true }, basic)).status).toBe(403);
    expect((await companyNow()).display_imported_categories).toBe(false);
  });

  it('sets the display-only-imported flags and refuses an import without credentials', async () => {
    const on = await service({ type: 'display_imported_stakeholders', enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ company_id: companyId, display_imported_stakeholders: true, display_imported_categories: false });
    const off = await service({ type: 'display_imported_stakeholders', enabled: false });
    expect(off.body).toMatchObject({ display_imported_stakeholders: false });
    const sql = await service({ type: 'sql_import', enabled: true });
    expect(sql.status).toBe(422);
    expect((await companyNow()).sql_import).toBe(false);
  });

  it('refuses a send while no export target is switched on, confirming nothing', async () => {
    const id = await uploadDocument(t.stack, admin, companyId, await invoicePdf(), 'send-nowhere.pdf');
    const before = ((await admin.get(`/receipts/${id}?${q()}`)).body as { status: string }).status;
    const res = record(await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: 'Nothing was sent: no export integration (FTP, NSOFT or Rivile) is switched on' });
    expect(((await admin.get(`/receipts/${id}?${q()}`)).body as { status: string }).status).toBe(before);
  }, 120_000);

  it('switches FTP on after a real login, exports original and XML on confirm, and a second send adds nothing', async () => {
    const res = await service({ type: 'ftp_export', enabled: true, credential: ftpCreds() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ftp_export: true, nsoft_export: false });
    const id = await confirmedDocument('ftp-1.pdf');
    const folder = `${company.code}/${SAMPLE_INVOICE.date.slice(0, 7)}`;
    const files = filesUnder(ftp.root);
    expect(files).toEqual([`${folder}/${id}.xml`, `${folder}/${id}_ftp-1.pdf`]);
    const xml = readFileSync(path.join(ftp.root, folder, `${id}.xml`), 'utf8');
    expect(xml).toContain(`<Document id="${id}"`);
    expect(xml).toContain(`${SAMPLE_INVOICE.number}-ftp-1.pdf`);
    expect(readFileSync(path.join(ftp.root, folder, `${id}_ftp-1.pdf`)).subarray(0, 4).toString()).toBe('%PDF');
    expect(await historyNames(id)).toContain('Exported to FTP');
    // The same document sent again (bulk send): no new file, no second history entry.
    const again = record(await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] }));
    expect(again.body).toMatchObject({ results: [{ receipt_id: id, ok: true }] });
    await t.stack.exportJobs.idle(60_000);
    expect(filesUnder(ftp.root)).toEqual(files);
    expect((await historyNames(id)).filter((n) => n === 'Exported to FTP')).toHaveLength(1);
    // Off and on again: without credentials the stored ones are gone (switching off keeps nothing).
    expect((await service({ type: 'ftp_export', enabled: false })).body).toMatchObject({ ftp_export: false });
    expect((await service({ type: 'ftp_export', enabled: true })).status).toBe(422);
    // Kept on request: re-tested with the stored ones.
    expect((await service({ type: 'ftp_export', enabled: true, credential: ftpCreds() })).status).toBe(200);
    expect((await service({ type: 'ftp_export', enabled: false, keep_credentials: true })).status).toBe(200);
    expect((await service({ type: 'ftp_export', enabled: true })).body).toMatchObject({ ftp_export: true });
  }, 120_000);

  it("the list's Send confirms as the edit screen's CONFIRM does: the same checks, the supplier linked; documents not read are refused", async () => {
    const id = await uploadDocument(t.stack, admin, companyId, await invoicePdf(), 'send-checked.pdf');
    const folder = `${company.code}/${SAMPLE_INVOICE.date.slice(0, 7)}`;
    const receiptOf = async () => (await admin.get(`/receipts/${id}?${q()}`)).body as { status: string };
    const statusBefore = (await receiptOf()).status;
    expect(['review', 'ready']).toContain(statusBefore);
    const put = async (items: { id: string; value: string }[]) => {
      const c = (await admin.get(`/receipts/${id}/content?${q()}`)).body as { version: number };
      expect((await admin.put(`/receipts/${id}/content?${q()}`, { version: c.version, items })).status).toBe(200);
    };
    // The company's own code as the supplier's: refused with the edit screen's note; nothing confirmed or delivered
    await put([
      { id: 'supplier_name', value: 'UAB Siuntu centras' },
      { id: 'supplier_vat_id', value: '' },
      { id: 'supplier_code', value: company.code },
      { id: 'issue_date', value: SAMPLE_INVOICE.date },
    ]);
    const refused = record(await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] }));
    expect(refused.body).toEqual({ results: [{ receipt_id: id, ok: false, status: 422, message: 'Company code matches customer/supplier code' }] });
    await t.stack.exportJobs.idle(60_000);
    expect((await receiptOf()).status).toBe(statusBefore);
    expect(filesUnder(ftp.root).filter((f) => f.includes(id))).toEqual([]);
    // Put right: confirmed (archived, the supplier linked to the register) and delivered
    await put([{ id: 'supplier_code', value: '304999111' }]);
    const sent = record(await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] }));
    expect(sent.body).toMatchObject({ results: [{ receipt_id: id, ok: true, status: 200, receipt: { status: 'archive' } }] });
    await t.stack.exportJobs.idle(60_000);
    expect(filesUnder(ftp.root)).toContain(`${folder}/${id}.xml`);
    expect(await historyNames(id)).toContain('New stakeholder saved');
    // A document that was not read (its file broken): refused, not archived
    const broken = await uploadDocument(t.stack, admin, companyId, new TextEncoder().encode('%PDF-1.7\nnot a document'), 'send-broken.pdf');
    const brokenStatus = ((await admin.get(`/receipts/${broken}?${q()}`)).body as { status: string }).status;
    expect(['failed', 'error']).toContain(brokenStatus);
    const notRead = record(await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [broken] }));
    expect(notRead.body).toEqual({ results: [{ receipt_id: broken, ok: false, status: 409, message: `A document in status ${brokenStatus} cannot be sent` }] });
    expect(((await admin.get(`/receipts/${broken}?${q()}`)).body as { status: string }).status).toBe(brokenStatus);
  }, 120_000);

  it('exports to Rivile: N08 client, N17 item and I06 with its I07 lines; a second send creates nothing new', async () => {
    const bad = await service({ type: 'rivile_export', enabled: true, credential: { api_key: 'RIVUSR1-wrong-key' } });
    expect(bad.status).toBe(422);
    expect((bad.body as { details: unknown }).details).toEqual([{ path: ['api_key'], message: 'Invalid API key' }]);
    expect((await service({ type: 'rivile_export', enabled: true, credential: { api_key: RIVILE_KEY } })).body).toMatchObject({ rivile_export: true });
    const id = await confirmedDocument('rivile-1.pdf');
    const { N08, N17, I06 } = t.stack.rivile.tables;
    expect(N08).toEqual([expect.objectContaining({ N08_KODAS_KS: SAMPLE_INVOICE.supplierCode, N08_PAV: SAMPLE_INVOICE.supplier, _creator: 'RIVUSR1' })]);
    expect(I06).toHaveLength(1);
    const doc = I06[0]! as unknown as Record<string, unknown> & { I07: Record<string, string>[] };
    expect(doc).toMatchObject({ I06_OP_TIP: '1', I06_DOK_NR: `${SAMPLE_INVOICE.number}-rivile-1.pdf`, I06_KODAS_KS: SAMPLE_INVOICE.supplierCode, I06_OP_DATA: '2025-03-04' });
    expect(doc.I07.length).toBeGreaterThan(0);
    const net = doc.I07.reduce((s, l) => s + Number(l.I07_SUMA), 0);
    const vat = doc.I07.reduce((s, l) => s + Number(l.I07_PVM), 0);
    expect(net).toBeCloseTo(100, 2);
    expect(vat).toBeCloseTo(21, 2);
    expect(doc.I07.every((l) => N17.some((i) => i.N17_KODAS_PS === l.I07_KODAS))).toBe(true);
    expect(await historyNames(id)).toEqual(expect.arrayContaining(['Exported to FTP', 'Exported to Rivile']));
    const callsBefore = t.stack.rivile.calls.length;
    await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] });
    await t.stack.exportJobs.idle(60_000);
    expect(t.stack.rivile.tables.I06).toHaveLength(1);
    expect(t.stack.rivile.tables.N08).toHaveLength(1);
    expect(t.stack.rivile.calls.length).toBe(callsBefore);
    // Unarchived, corrected and confirmed again: delivered again, Rivile's record updated (not a second one)
    expect((await admin.post(`/receipts/bulk?${q()}`, { action: 'status', status: 'unarchive', receipt_ids: [id] })).body).toMatchObject({ results: [{ ok: true }] });
    const c = (await admin.get(`/receipts/${id}/content?${q()}`)).body as { version: number };
    const corrected = await admin.post(`/receipt/${id}?${q()}&with_send=1`, { version: c.version, items: [{ id: 'due_date', value: '2025-04-30' }] });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    await t.stack.exportJobs.idle(60_000);
    expect(t.stack.rivile.tables.I06).toHaveLength(1);
    expect(t.stack.rivile.tables.I06[0]).toMatchObject({ I06_DOK_NR: `${SAMPLE_INVOICE.number}-rivile-1.pdf`, I06_MOK_DATA: '2025-04-30' });
    expect((await historyNames(id)).filter((n) => n === 'Exported to Rivile')).toHaveLength(2);
    // The EIP import file of the same document, for users without API access; no one else's documents.
    const eip = await admin.post(`/receipts/export-rivile?${q()}`, { receipt_ids: [id] });
    expect(eip.status).toBe(200);
    expect(eip.headers.get('content-disposition')).toMatch(/rivile-eip-.*\.xml/);
    expect(String(eip.body)).toContain(`<I06_DOK_NR>${SAMPLE_INVOICE.number}-rivile-1.pdf</I06_DOK_NR>`);
    expect(String(eip.body)).toContain('<I06_OP_DATA>2025.03.04</I06_OP_DATA>');
    // A document Rivile could not book on its own date refuses the file, naming it, instead of booking it on its upload day
    const undated = await confirmedDocument('eip-undated.pdf', '');
    const refused = await admin.post(`/receipts/export-rivile?${q()}`, { receipt_ids: [id, undated] });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ message: 'Rivile EIP needs an issue date: eip-undated.pdf has no issue date' });
    const stranger = await registeredUser(t.stack, 'eip');
    expect((await stranger.api.post(`/receipts/export-rivile?company_id=${stranger.companyId}`, { receipt_ids: [id] })).status).toBe(404);
    expect((await stranger.api.post(`/receipts/export-rivile?${q()}`, { receipt_ids: [id] })).status).toBe(403);
    expect((await apiClient(t.stack.apiUrl).post(`/receipts/export-rivile?${q()}`, { receipt_ids: [id] })).status).toBe(401);
  }, 120_000);

  it('a target that is down: retried, then a visible error on the document; sending again delivers it', async () => {
    await service({ type: 'rivile_export', enabled: false });
    const port = ftp.port;
    await ftp.stop();
    const id = await confirmedDocument('down-1.pdf');
    const receipt = (await admin.get(`/receipts/${id}?${q()}`)).body as { error: { message: string } | null; status: string };
    expect(receipt.status).toBe('archive');
    expect(receipt.error?.message).toMatch(/^Export to FTP failed: Connection refused/);
    const names = await historyNames(id);
    expect(names.some((n) => n.startsWith('Export to FTP failed'))).toBe(true);
    expect(names).not.toContain('Exported to FTP');
    ftp = await startLocalFtpServer({ root: ftp.root, user: 'acme', password: FTP_PASSWORD, port });
    const again = await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] });
    expect(again.status).toBe(200);
    await t.stack.exportJobs.idle(60_000);
    expect(filesUnder(ftp.root)).toContain(`${company.code}/${SAMPLE_INVOICE.date.slice(0, 7)}/${id}.xml`);
    const after = (await admin.get(`/receipts/${id}?${q()}`)).body as { error: { message: string } | null };
    expect(after.error).toBeNull();
    expect(await historyNames(id)).toContain('Exported to FTP');
  }, 120_000);

  it("one target's success does not hide another's failure: Rivile refused while FTP delivers; Send again clears it", async () => {
    expect((await service({ type: 'rivile_export', enabled: true, credential: { api_key: RIVILE_KEY } })).status).toBe(200);
    try {
      // The key withdrawn in Rivile after the integration was switched on: a permanent refusal
      t.stack.rivile.keys.delete(RIVILE_KEY);
      const id = await confirmedDocument('two-targets.pdf');
      t.stack.rivile.keys.add(RIVILE_KEY);
      expect(filesUnder(ftp.root)).toContain(`${company.code}/${SAMPLE_INVOICE.date.slice(0, 7)}/${id}.xml`);
      expect(await historyNames(id)).toContain('Exported to FTP');
      const receipt = (await admin.get(`/receipts/${id}?${q()}`)).body as { error: { message: string } | null };
      expect(receipt.error?.message).toMatch(/^Export to Rivile failed: /);
      const again = record(await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] }));
      expect(again.body).toMatchObject({ results: [{ receipt_id: id, ok: true }] });
      await t.stack.exportJobs.idle(60_000);
      expect(((await admin.get(`/receipts/${id}?${q()}`)).body as { error: unknown }).error).toBeNull();
      expect(await historyNames(id)).toContain('Exported to Rivile');
    } finally {
      t.stack.rivile.keys.add(RIVILE_KEY);
      await service({ type: 'rivile_export', enabled: false });
    }
  }, 120_000);

  it('Send again after the failed target was switched off: its failure is dismissed, with a history line, and the answer says so', async () => {
    expect((await service({ type: 'rivile_export', enabled: true, credential: { api_key: RIVILE_KEY } })).status).toBe(200);
    try {
      t.stack.rivile.keys.delete(RIVILE_KEY);
      const id = await confirmedDocument('switched-off.pdf');
      t.stack.rivile.keys.add(RIVILE_KEY);
      const failed = (await admin.get(`/receipts/${id}?${q()}`)).body as { error: { message: string } | null };
      expect(failed.error?.message).toMatch(/^Export to Rivile failed: /);
      // Rivile is given up: the document's failure could never be sent away by Send again
      await service({ type: 'rivile_export', enabled: false });
      const again = record(await admin.post(`/receipts/bulk?${q()}`, { action: 'send', receipt_ids: [id] }));
      expect(again.body).toMatchObject({ results: [{ receipt_id: id, ok: true, receipt: { receipt_id: id, error: null } }] });
      await t.stack.exportJobs.idle(60_000);
      expect(((await admin.get(`/receipts/${id}?${q()}`)).body as { error: unknown }).error).toBeNull();
      const names = await historyNames(id);
      expect(names).toContain('Export to Rivile not tried again: the Rivile integration is switched off');
      expect(names).not.toContain('Exported to Rivile');
    } finally {
      t.stack.rivile.keys.add(RIVILE_KEY);
      await service({ type: 'rivile_export', enabled: false });
    }
  }, 120_000);

  it('exports to NSOFT: the original and the NSOFT import file in the NSOFT server folder', async () => {
    await service({ type: 'ftp_export', enabled: false });
    expect((await service({ type: 'nsoft_export', enabled: true, credential: ftpCreds() })).body).toMatchObject({ nsoft_export: true, ftp_export: false });
    const id = await confirmedDocument('nsoft-1.pdf');
    const folder = `${company.code}/${SAMPLE_INVOICE.date.slice(0, 7)}`;
    expect(filesUnder(ftp.root)).toEqual(expect.arrayContaining([`${folder}/${id}.nsoft.csv`, `${folder}/${id}_nsoft-1.pdf`]));
    expect(filesUnder(ftp.root)).not.toContain(`${folder}/${id}.xml`);
    const csv = readFileSync(path.join(ftp.root, folder, `${id}.nsoft.csv`), 'utf8');
    expect(csv).toContain(`PIRK;${SAMPLE_INVOICE.number}-nsoft-1.pdf;2025-03-04`);
    expect(await historyNames(id)).toContain('Exported to NSOFT');
    // Without an issue date NSOFT would book the document in the month of its upload: refused, and said so
    const undated = await confirmedDocument('nsoft-undated.pdf', '');
    const receipt = (await admin.get(`/receipts/${undated}?${q()}`)).body as { error: { message: string } | null };
    expect(receipt.error?.message).toBe('Export to NSOFT failed: the document has no issue date');
    expect(filesUnder(ftp.root).filter((f) => f.includes(undated))).toEqual([]);
    // A Tax total corrected without its VAT line (21.00 as read): NSOFT's lines carry the VAT of the lines, refused
    const offLines = await confirmedDocument('nsoft-vat-off.pdf', SAMPLE_INVOICE.date, [{ id: 'amount_tax', value: '25.00' }]);
    const off = (await admin.get(`/receipts/${offLines}?${q()}`)).body as { error: { message: string } | null };
    expect(off.error?.message).toBe('Export to NSOFT failed: the VAT lines do not add up: VAT amounts add up to 21.00, the Tax total is 25.00');
    expect(filesUnder(ftp.root).filter((f) => f.includes(offLines))).toEqual([]);
  }, 120_000);

  it('never returns or stores the secrets in clear: every GET answer and the raw table are searched', async () => {
    const list = (await admin.get(`/receipts?${q()}&limit=50`)).body as { items: { receipt_id: string }[] };
    const ids = list.items.map((i) => i.receipt_id);
    const paths = ['/companies', '/user', `/company/users?${q()}`, `/receipts?${q()}`, `/receipts/total-documents?${q()}`, `/schemas?${q()}`];
    for (const id of ids) paths.push(`/receipts/${id}?${q()}`, `/receipts/${id}/history?${q()}`, `/receipts/${id}/content?${q()}`, `/receipts/${id}/preview?${q()}`, `/receipts/${id}/duplicates?${q()}`);
    for (const p of paths) {
      const res = await admin.get(p);
      expect(res.status, p).toBeLessThan(500);
      record(res);
    }
    expect(seen.length).toBeGreaterThanOrEqual(paths.length);
    for (const body of seen) {
      expect(body).not.toContain(FTP_PASSWORD);
      expect(body).not.toContain(RIVILE_KEY);
    }
    const raw = JSON.stringify(await wholeTable());
    expect(raw).toContain('INTEGRATION#nsoft_export');
    expect(raw).not.toContain(FTP_PASSWORD);
    expect(raw).not.toContain(RIVILE_KEY);
  });
});
