/**
 * Demo data of the Google Drive and Dropbox imports: on the first start the demo company's Dropbox import is
 * connected through the real routes (drive/switch → the stand-in's Allow → drive/authorize → drive/folders), watching
 * the stand-in's folder `/Receipts inbox`. Files put there (`PUT <url>/_dropbox/_drop?folder=/Receipts%20inbox&name=…`)
 * become documents on the next run of the import schedule.
 */
import type { LocalStack } from './stack';
import { accessTokenOf, DEMO_USER } from './seed';

export const DEMO_DROPBOX_FOLDER = '/Receipts inbox';
/** The Google Drive stand-in's demo folders: the import's folder list offers them once Google is switched on. */
export const DEMO_GOOGLE_FOLDERS = ['Receipts inbox', 'Scanned invoices'] as const;

/**
 * The Google Drive stand-in's folders of the demo (its drive is otherwise empty, and an import switched on could
 * choose no folder). Added on the first start, as the Dropbox ones; files dropped there
 * (`PUT <google url>/_drop?folder=Receipts%20inbox&name=…`) become documents once the import watches the folder.
 */
export function seedDemoGoogleFolders(stack: Pick<LocalStack, 'google'>): void {
  for (const name of DEMO_GOOGLE_FOLDERS) stack.google.addFolder(name);
}

export async function connectDemoDropbox(stack: LocalStack): Promise<void> {
  const token = await accessTokenOf(stack, DEMO_USER);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const companies = (await (await fetch(`${stack.apiUrl}/companies`, { headers })).json()) as { items: { company_id: string }[] };
  const companyId = companies.items[0]?.company_id;
  if (!companyId) return;
  const q = `company_id=${encodeURIComponent(companyId)}`;
  const folderId = stack.dropbox.addFolder(DEMO_DROPBOX_FOLDER);
  stack.dropbox.addFolder('/Photos');
  const switched = await fetch(`${stack.apiUrl}/company/service/drive/switch?${q}&service_type=dropbox`, { headers });
  if (!switched.ok) throw new Error(`drive/switch: ${switched.status} ${await switched.text()}`);
  const back = new URL(stack.dropbox.oauth.approveUrl(((await switched.json()) as { url: string }).url));
  const authorized = await fetch(`${stack.apiUrl}/company/service/drive/authorize?${q}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ service_type: 'dropbox', code: back.searchParams.get('code'), state: back.searchParams.get('state') }),
  });
  if (!authorized.ok) throw new Error(`drive/authorize: ${authorized.status} ${await authorized.text()}`);
  const chosen = await fetch(`${stack.apiUrl}/company/service/drive/folders?${q}`, { method: 'POST', headers, body: JSON.stringify({ service_type: 'dropbox', folder_id: folderId }) });
  if (!chosen.ok) throw new Error(`drive/folders: ${chosen.status} ${await chosen.text()}`);
}
