/**
 * The edit screen's actions (POST receipt/{id}): save the values sent along, validate the content on the
 * server (errors by content id block the action), check that the company's own code is not the
 * supplier's/customer's, then move the document with the documents domain's status change. A confirm
 * (with_send → archive) then learns the supplier's layout from the confirmed values (learn-layout.ts); a
 * failure to learn is logged and never fails the confirm.
 * Master data (edit-master-data.ts): `category_id` / `external_category_id` set the document's category
 * (checked before anything is saved); a confirm links the supplier/customer to the register, creating it
 * when it is new.
 */
import { AppError, conflict } from '../../../shared/errors';
import { CONTENT_MSG, type EditReceiptInput, type SetCategoryInput, type SetNotesInput } from '../../../shared/schemas/content';
import type { ReceiptSummary, StatusAction } from '../../../shared/schemas/receipts';
import { assertEditable, MESSAGES, nextStatus, toWorkflowAction } from '../documents/status-machine';
import type { DocumentRecord } from '../documents/types';
import type { SupplierLayouts } from '../recognition/ports';
import type { MasterDataStore } from '../master-data/ports';
import { confirmedDateOrder } from '../recognition/learn';
import type { MasterDataPatch } from '../documents/workflow';
import { categoryPatch, confirmedCategory, confirmStakeholder, type ConfirmDates, type EditMasterData } from './edit-master-data';
import { confirmedFieldsFromContent, confirmedPlacesFromContent, learnFromConfirmed, wordsFromBoxes } from './learn-layout';
import type { ContentCaller, ContentPorts } from './ports';
import { stakeholderKind } from './schema';
import { currentCompany, getContent, loadContent, toStored, updateContent } from './service';
import { datapointBySchemaId, setValues, valueOf, type ValueUpdate } from './tree';
import { validateContent } from './validate';

export interface StatusChanger {
  changeStatus(caller: ContentCaller, receiptId: string, status: StatusAction, version?: number): Promise<ReceiptSummary>;
  convertType?(caller: ContentCaller, receiptId: string, receiptType: 'receipt' | 'invoice', version: number): Promise<ReceiptSummary>;
  /** The document's notes (documents' setDocumentFields); a change that changes nothing writes nothing. */
  setNotes?(caller: ContentCaller, receiptId: string, notes: string, version: number | undefined): Promise<ReceiptSummary>;
}

/** Where a confirm stores what it learns, and where it reports a failure to learn. */
export interface ConfirmLearning {
  layouts: SupplierLayouts;
  log: { info(msg: string, data?: Record<string, unknown>): void; warn(msg: string, data?: Record<string, unknown>): void };
}

const norm = (s: string) => s.replace(/\s+/g, '').toUpperCase();

export async function editReceipt(...args: Parameters<typeof applyEditAction>) {
  const [ports, , caller, receiptId] = args;
  const receipt = await applyEditAction(...args);
  return { receipt, content: await getContent(ports, caller, receiptId) };
}

/** The action of `editReceipt` without reading the content back (the list's Send confirms many documents). */
export async function applyEditAction(
  ports: ContentPorts,
  workflow: StatusChanger,
  caller: ContentCaller,
  receiptId: string,
  input: EditReceiptInput,
  withSend: boolean,
  learning: ConfirmLearning,
  masterData?: EditMasterData,
): Promise<ReceiptSummary> {
  let version = input.version;
  const touchesCategory = input.category_id !== undefined || input.external_category_id !== undefined;
  if (touchesCategory && !masterData) throw new AppError('BadRequest', 'Categories are not available');
  const rejecting = input.receipt_status === 'rejected' && !withSend;
  const status: StatusAction = withSend ? 'archive' : rejecting ? 'rejected' : 'review';
  // The move is refused before anything is saved, validated or created (a refused CONFIRM must not leave a new
  // supplier in the register or a write on an archived document): stale version, then the status machine's 409s
  // (archived is read-only, busy, unassigned), in the order every other edit checks them.
  assertMovable(await ports.documents.load(caller, receiptId), status, version);
  const category = touchesCategory && masterData ? await categoryPatch(masterData.store, (await loadContent(ports, caller, receiptId)).record, input) : undefined;
  if (input.items?.length) version = (await updateContent(ports, caller, receiptId, { version, items: input.items })).version;
  if (input.receipt_type) {
    const current = await loadContent(ports, caller, receiptId);
    if (current.record.receipt_type !== input.receipt_type) {
      if (!workflow.convertType) throw new AppError('BadRequest', 'Converting is not available');
      version = (await workflow.convertType(caller, receiptId, input.receipt_type, version)).version;
    }
  }
  if (category && masterData) version = (await masterData.setMasterData(caller, receiptId, category, category.category ? `Category: ${category.category}` : 'Category removed', version)).version;
  if (input.notes !== undefined) version = (await notesSetter(workflow)(caller, receiptId, input.notes, version)).version;
  const l = await loadContent(ports, caller, receiptId);
  if (!rejecting) await assertValidForAction(ports, l);
  // A category deleted from the register is refused like a pick of it (before anything is written); a renamed one
  // gives the document its current name with the party's link.
  const categoryNow = status === 'archive' && masterData ? await confirmedCategory(masterData.store, l.record) : undefined;
  // Only now, after the checks, is the party matched or created (a write that then loses a race leaves at most a
  // new, ordinary register entry).
  // What is learnt is the content as confirmed, less the register's code / VAT ID that went with an undone link.
  let confirmed = l.doc;
  if (status === 'archive' && masterData) ({ version, doc: confirmed } = await linkStakeholder(ports, masterData, caller, l, version, learning.log, categoryNow));
  const receipt = await workflow.changeStatus(caller, receiptId, status, version);
  if (status === 'archive') {
    try {
      const outcome = await learnFromConfirmed({ blobs: ports.blobs, layouts: learning.layouts, clock: ports.clock }, { record: l.record, content: confirmed, userId: caller.userId });
      if (outcome.learnt) learning.log.info('supplier layout learnt', { receipt_id: receiptId, keys: outcome.keys.map((k) => k.kind), fields: outcome.fields });
      else learning.log.info('supplier layout not learnt', { receipt_id: receiptId, reason: outcome.reason });
    } catch (error) {
      learning.log.warn('learning the supplier layout failed', { receipt_id: receiptId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return receipt;
}

/** The refusals of `changeStatus` for this move, made before the edit writes anything: stale version, then the status machine's. */
function assertMovable(record: DocumentRecord, status: StatusAction, version: number): void {
  if (record.version !== version) throw conflict(MESSAGES.stale, { version: record.version });
  const action = toWorkflowAction(status);
  nextStatus(record.status, action === 'review' && record.status === 'archive' ? 'unarchive' : action);
}

/**
 * PUT /receipt/{id}/category: the category picked on the edit screen, stored at once (an Archive, Back or Next right
 * after the pick keeps it). The category must be the company's; an archived document is read-only.
 */
export async function setReceiptCategory(
  ports: ContentPorts,
  caller: ContentCaller,
  receiptId: string,
  input: SetCategoryInput,
  masterData: EditMasterData,
): Promise<ReceiptSummary> {
  const record = await ports.documents.load(caller, receiptId);
  assertEditable(record);
  const patch = await categoryPatch(masterData.store, record, input);
  if (!patch) throw new AppError('ValidationFailed', 'Choose a category', [{ path: ['category_id'], message: 'Choose a category' }]);
  return masterData.setMasterData(caller, receiptId, patch, patch.category ? `Category: ${patch.category}` : 'Category removed', input.version);
}

function notesSetter(workflow: StatusChanger): NonNullable<StatusChanger['setNotes']> {
  if (!workflow.setNotes) throw new AppError('BadRequest', 'Notes are not available');
  return workflow.setNotes;
}

/**
 * PUT /receipt/{id}/notes: the notes typed on the edit screen, stored as the typing stops (an action right after
 * carries what is not stored yet). An archived document is read-only.
 */
export async function setReceiptNotes(ports: ContentPorts, workflow: StatusChanger, caller: ContentCaller, receiptId: string, input: SetNotesInput): Promise<ReceiptSummary> {
  assertEditable(await ports.documents.load(caller, receiptId));
  return notesSetter(workflow)(caller, receiptId, input.notes, input.version);
}

/**
 * What blocks the edit screen's actions other than REJECT (rules.md 5): content that does not validate, or the
 * company's own code as the supplier's/customer's code. Throws 422 with the errors by content id.
 */
async function assertValidForAction(ports: ContentPorts, l: Awaited<ReturnType<typeof loadContent>>): Promise<void> {
  const errors = validateContent(l.doc, l.schema, l.record.receipt_type);
  if (errors.length) throw new AppError('ValidationFailed', CONTENT_MSG.saveFailed, errors.map((e) => ({ path: [e.id], message: e.message })));
  const code = valueOf(l.doc, `${stakeholderKind(l.record.receipt_type)}_code`);
  if (!code) return;
  const { code: companyCode } = await currentCompany(ports, l.record);
  if (companyCode && norm(code) === norm(companyCode)) {
    throw new AppError('ValidationFailed', CONTENT_MSG.companyCode, [{ path: [`${stakeholderKind(l.record.receipt_type)}_code`], message: CONTENT_MSG.companyCode }]);
  }
}

/**
 * POST receipt/{id}/status and the list's bulk status change. `ready` means "confirm it as it stands" to whoever
 * reads the list next (and a Send takes it as such), so a person may mark a document ready only when its content
 * would pass a confirm's checks; the other moves are the status machine's alone.
 */
export async function changeDocumentStatus(
  ports: ContentPorts,
  workflow: StatusChanger,
  caller: ContentCaller,
  receiptId: string,
  status: StatusAction,
  version?: number,
  store?: MasterDataStore,
): Promise<ReceiptSummary> {
  if (status === 'ready') {
    // A move the status machine refuses (archived, busy, unassigned) answers its own 409 before the content's 422.
    nextStatus((await ports.documents.load(caller, receiptId)).status, 'ready');
    const l = await loadContent(ports, caller, receiptId);
    await assertValidForAction(ports, l);
    // A category deleted from the register would be refused by the confirm `ready` promises.
    if (store) await confirmedCategory(store, l.record);
  }
  return workflow.changeStatus(caller, receiptId, status, version);
}

/** Throws as a confirm would when the document's content, as it stands, could not be confirmed (the list's Send of archived documents). */
export async function assertConfirmable(ports: ContentPorts, caller: ContentCaller, receiptId: string): Promise<void> {
  await assertValidForAction(ports, await loadContent(ports, caller, receiptId));
}

/**
 * A confirmed document's supplier/customer linked to the register (created when new). A party that cannot
 * be kept (no name or code) is logged and the confirm goes on. The document takes the register's current name and
 * date format of the party, and its code and VAT ID where the document's came with the link (a content save named for
 * it), and the category's current name (`category`); a matched party's date format follows the confirm
 * (edit-master-data.ts `confirmedDateFormat`), and a party without a category learns the document's. Returns the
 * document's version after it.
 */
async function linkStakeholder(
  ports: ContentPorts,
  md: EditMasterData,
  caller: ContentCaller,
  l: Awaited<ReturnType<typeof loadContent>>,
  version: number,
  log: ConfirmLearning['log'],
  category: MasterDataPatch | undefined,
): Promise<{ version: number; doc: typeof l.doc }> {
  const record = l.record;
  const outcome = await confirmStakeholder(md, record, l.doc, printedDates(ports, l));
  if (outcome.linked === 'none' && !outcome.patch) {
    log.info('stakeholder not linked', { receipt_id: record.receipt_id, reason: outcome.reason });
    return { version: category ? (await md.setMasterData(caller, record.receipt_id, category, `Category: ${category.category}`, version)).version : version, doc: l.doc };
  }
  if (outcome.linked === 'none') log.info('stakeholder unlinked', { receipt_id: record.receipt_id, reason: outcome.reason });
  else log.info('stakeholder linked', { receipt_id: record.receipt_id, stakeholder_id: outcome.stakeholderId, how: outcome.linked });
  const updates: ValueUpdate[] = [];
  for (const [schemaId, value] of Object.entries(outcome.content ?? {})) {
    const dp = datapointBySchemaId(l.doc, schemaId);
    if (dp && (dp.content?.value ?? '') !== value) updates.push({ id: dp.id, value, confidence: value ? (dp.content?.confidence ?? null) : null });
  }
  // The party's numbers change only where a typed name undid the link (edit-master-data.ts relinkTyped) or the register's
  // replace the ones that came with the link (registerNumbers); what is learnt is the content as confirmed.
  const numbers = updates.filter((u) => /_(code|vat_id)$/.test(datapointBySchemaId(l.doc, u.id)?.schema_id ?? u.id));
  const learnt = numbers.length ? setValues(l.doc, numbers) : l.doc;
  if (updates.length) {
    if (record.version !== version) throw conflict(MESSAGES.stale, { version: record.version });
    const doc = setValues(l.doc, updates);
    const contentKey = await ports.blobs.writeContent(record, toStored(doc));
    const party = stakeholderKind(record.receipt_type) === 'supplier' ? 'Supplier' : 'Customer';
    version = (await ports.documents.saveContent({ caller, before: record, contentKey, content: doc, historyName: `${party} as the register has it` })).version;
  }
  const history = outcome.linked === 'created' ? 'New stakeholder saved' : outcome.linked === 'matched' ? 'Stakeholder matched' : 'Stakeholder removed';
  return { version: (await md.setMasterData(caller, record.receipt_id, { ...outcome.patch, ...category }, history, version)).version, doc: learnt };
}

/** The order the confirmed dates show as printed, read from the document's stored page words when asked. */
function printedDates(ports: ContentPorts, l: Awaited<ReturnType<typeof loadContent>>): ConfirmDates {
  return {
    printedOrder: async () => {
      const words = wordsFromBoxes(await ports.blobs.readBoxes(l.record));
      return words.length ? confirmedDateOrder(confirmedFieldsFromContent(l.doc), words, confirmedPlacesFromContent(l.doc)) : undefined;
    },
  };
}
