/**
 * The edit screen's actions (POST receipt/{id}): save the values sent along, validate the content on the
 * server (errors by content id block the action), check that the company's own code is not the
 * supplier's/customer's, then move the document with the documents domain's status change.
 */
import { AppError } from '../../../shared/errors';
import { CONTENT_MSG, type EditReceiptInput } from '../../../shared/schemas/content';
import type { ReceiptSummary, StatusAction } from '../../../shared/schemas/receipts';
import type { ContentCaller, ContentPorts } from './ports';
import { stakeholderKind } from './schema';
import { getContent, loadContent, updateContent } from './service';
import { valueOf } from './tree';
import { validateContent } from './validate';

export interface StatusChanger {
  changeStatus(caller: ContentCaller, receiptId: string, status: StatusAction, version: number): Promise<ReceiptSummary>;
  convertType?(caller: ContentCaller, receiptId: string, receiptType: 'receipt' | 'invoice', version: number): Promise<ReceiptSummary>;
}

const norm = (s: string) => s.replace(/\s+/g, '').toUpperCase();

export async function editReceipt(
  ports: ContentPorts,
  workflow: StatusChanger,
  caller: ContentCaller,
  receiptId: string,
  input: EditReceiptInput,
  withSend: boolean,
) {
  let version = input.version;
  if (input.items?.length) version = (await updateContent(ports, caller, receiptId, { version, items: input.items })).version;
  if (input.receipt_type) {
    const current = await loadContent(ports, caller, receiptId);
    if (current.record.receipt_type !== input.receipt_type) {
      if (!workflow.convertType) throw new AppError('BadRequest', 'Converting is not available');
      version = (await workflow.convertType(caller, receiptId, input.receipt_type, version)).version;
    }
  }
  const l = await loadContent(ports, caller, receiptId);
  const rejecting = input.receipt_status === 'rejected' && !withSend;
  if (!rejecting) {
    const errors = validateContent(l.doc, l.schema, l.record.receipt_type);
    if (errors.length) throw new AppError('ValidationFailed', CONTENT_MSG.saveFailed, errors.map((e) => ({ path: [e.id], message: e.message })));
    const code = valueOf(l.doc, `${stakeholderKind(l.record.receipt_type)}_code`);
    if (code && l.record.company_code && norm(code) === norm(l.record.company_code)) {
      throw new AppError('ValidationFailed', CONTENT_MSG.companyCode, [{ path: [`${stakeholderKind(l.record.receipt_type)}_code`], message: CONTENT_MSG.companyCode }]);
    }
  }
  const status: StatusAction = withSend ? 'archive' : rejecting ? 'rejected' : 'review';
  const receipt = await workflow.changeStatus(caller, receiptId, status, version);
  return { receipt, content: await getContent(ports, caller, receiptId) };
}
