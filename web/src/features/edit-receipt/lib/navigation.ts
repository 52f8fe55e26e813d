/**
 * Moving between documents of the list the user came from (product.md section 4): in the inbox every status
 * except processing and unassigned counts; from a status list only that status. Only documents of the same
 * type (receipt / invoice) as the current one are walked after an action.
 */
import type { ReceiptStatus } from '../../../../../shared/status';

export interface ListContext {
  inbox: boolean;
  /** The status list the user came from (ignored for the inbox). */
  status: ReceiptStatus;
  receiptType: 'receipt' | 'invoice';
}

export interface ListItem {
  receipt_id: string;
  status: ReceiptStatus;
  receipt_type: 'receipt' | 'invoice';
}

export function inList(item: ListItem, ctx: ListContext): boolean {
  if (item.receipt_type !== ctx.receiptType) return false;
  if (ctx.inbox) return item.status !== 'processing' && item.status !== 'unassigned' && item.status !== 'converting' && item.status !== 'saving';
  return item.status === ctx.status;
}

/** Where the list page of the context is: /receipts/inbox or /receipts/{status}. */
export function listPath(ctx: Pick<ListContext, 'inbox' | 'status'>): string {
  return `/receipts/${ctx.inbox ? 'inbox' : ctx.status}`;
}

/**
 * n/total of the current document among the list's loaded documents (n is 0 when it is not among them); the
 * total is the list's size when known (`total`), never less than the documents loaded.
 */
export function positionOf(items: ListItem[], id: string, total = items.length): { index: number; total: number } {
  return { index: items.findIndex((i) => i.receipt_id === id) + 1, total: Math.max(total, items.length) };
}

/**
 * The document after `id` in the list (wrapping to the start), skipping `id` itself; null when there is none.
 * `before` is the list as it was when the action started, so a document that left the list still has a place.
 */
export function nextDocument(items: ListItem[], id: string, before: ListItem[] = items): string | null {
  const others = items.filter((i) => i.receipt_id !== id);
  if (!others.length) return null;
  const at = before.findIndex((i) => i.receipt_id === id);
  if (at >= 0) {
    for (let k = at + 1; k < before.length; k++) {
      const candidate = before[k]!.receipt_id;
      if (others.some((o) => o.receipt_id === candidate)) return candidate;
    }
  }
  return others[0]!.receipt_id;
}

export function previousDocument(items: ListItem[], id: string): string | null {
  const at = items.findIndex((i) => i.receipt_id === id);
  if (at > 0) return items[at - 1]!.receipt_id;
  return null;
}

export function followingDocument(items: ListItem[], id: string): string | null {
  const at = items.findIndex((i) => i.receipt_id === id);
  if (at >= 0 && at < items.length - 1) return items[at + 1]!.receipt_id;
  return null;
}

/** A page of GET /receipts as the walk reads it. */
export interface WalkPage {
  items: ListItem[];
  next?: string | null;
}

/** The documents of the context among the pages loaded so far, in the list's order. */
export function walkItems(pages: ReadonlyArray<WalkPage> | undefined, ctx: ListContext): ListItem[] {
  return (pages ?? []).flatMap((p) => p.items).filter((i) => inList(i, ctx));
}

/** Pages read while looking for a document that is not among them (a list of 1,000 documents). */
export const WALK_SEARCH_PAGES = 20;

/**
 * Whether the walk needs the list's next page: the current document and the one after it must be loaded (for
 * n/total and next), or the document is not found yet (up to WALK_SEARCH_PAGES pages).
 */
export function walkNeedsMore(items: ListItem[], id: string, pagesLoaded: number): boolean {
  const at = items.findIndex((i) => i.receipt_id === id);
  if (at < 0) return pagesLoaded < WALK_SEARCH_PAGES;
  return at === items.length - 1;
}

export type StatusCounts = Partial<Record<ReceiptStatus, number>>;

/**
 * The number of documents of the context by the company's counts (the list is read 50 at a time, so its loaded
 * pages do not tell it): one status's count, or for the inbox every status it walks.
 */
export function walkTotal(counts: Partial<Record<'receipt' | 'invoice', StatusCounts>> | null | undefined, ctx: ListContext): number | null {
  const ofType = counts?.[ctx.receiptType];
  if (!ofType) return null;
  const statuses = ctx.inbox ? (Object.keys(ofType) as ReceiptStatus[]).filter((s) => inList({ receipt_id: '', status: s, receipt_type: ctx.receiptType }, ctx)) : [ctx.status];
  return statuses.reduce((sum, s) => sum + (ofType[s] ?? 0), 0);
}
