/** What learning from corrections needs from the outside world; adapters implement it (lambdas/adapters/ddb). */
import type { SupplierKey } from './layout-keys';
import type { SupplierLayoutHint } from './types';

/** A layout learnt from one confirmed document, as stored. */
export interface StoredSupplierLayout {
  hint: SupplierLayoutHint;
  /** The confirmed document it was learnt from. */
  source_receipt_id: string;
  learned_at: string;
  /** The user who confirmed it. */
  learned_by: string;
}

/**
 * A company's learnt supplier layouts (docs/data-model.md, C3/C4). Every call names the company: a company
 * never reads or writes another company's layouts.
 */
export interface SupplierLayouts {
  /** Stores the layout under every one of the keys, together; what those keys held before is replaced. */
  put(companyId: string, keys: SupplierKey[], layout: StoredSupplierLayout): Promise<void>;
  /** The layouts stored under any of the keys (one BatchGet), each once, newest first; [] for no keys. */
  find(companyId: string, keys: SupplierKey[]): Promise<StoredSupplierLayout[]>;
  /**
   * Deletes what the keys hold where it was learnt from the document `sourceReceiptId` (each key conditioned on it:
   * a layout a later confirm stored there stays); says how many keys it emptied.
   */
  forget(companyId: string, keys: SupplierKey[], sourceReceiptId: string): Promise<number>;
  /** The keys of the company that hold a layout learnt from the document `sourceReceiptId` (C7), whatever supplier they are of. */
  taughtBy(companyId: string, sourceReceiptId: string): Promise<SupplierKey[]>;
}
