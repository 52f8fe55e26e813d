import { useState } from 'react';
import { useApi } from '../../../app/api-context';
import { useInfoPopup } from '../../../components/ui/InfoPopup';
import { messageOf } from '../../../lib/api-error';
import type { Receipt } from '../../receipts/api/types';
import { useCategories } from '../api/master-data';
import { useAfterDocumentWrite } from './use-after-document-write';

type CategoryOption = { id: string; name: string };

/**
 * The document's category on the edit screen: stored as soon as it is picked (PUT /receipt/{id}/category), so an
 * Archive, Back or Next right after keeps it; a pick that could not be stored stays a draft and goes with the next
 * action (`body`). The options are the company's categories, with the document's own and the chosen party's when
 * the page of categories does not hold them. `refresh` reads the content again (its version moves with the
 * document's); `clearRefusal` drops a confirm's refusal of a deleted category once another is picked.
 */
export function useDocumentCategory({ receiptId, companyId, receipt, refresh, clearRefusal }: {
  receiptId: string;
  companyId: string;
  receipt: Pick<Receipt, 'category_id' | 'category'> | undefined;
  refresh(): Promise<unknown>;
  clearRefusal(): void;
}) {
  const api = useApi();
  const info = useInfoPopup();
  const written = useAfterDocumentWrite({ receiptId, refresh });
  const categoriesQ = useCategories(companyId);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [partyCategory, setPartyCategory] = useState<CategoryOption | null>(null);
  const current = receipt?.category_id ? { id: receipt.category_id, name: receipt.category ?? '' } : null;
  const options: CategoryOption[] = (categoriesQ.data ?? []).map((c) => ({ id: c.id, name: c.name }));
  for (const known of [current, partyCategory]) if (known && !options.some((c) => c.id === known.id)) options.unshift(known);

  const pick = async (value: string) => {
    setDraft(value);
    try {
      const answer = await api.put(`/receipt/${encodeURIComponent(receiptId)}/category`, { category_id: value === '' ? null : value }, { query: { company_id: companyId } });
      await written(answer, { receiptId, companyId });
      setDraft((d) => (d === value ? undefined : d));
      clearRefusal();
    } catch (e) {
      info.show(messageOf(e), 'error');
    }
  };

  return {
    /** The category shown: the pick not yet stored, else the document's. */
    value: draft ?? receipt?.category_id ?? '',
    options,
    pick,
    /** What an action's body carries of a pick not yet stored. */
    body: draft === undefined ? {} : { category_id: draft === '' ? null : draft },
    /** An action carried `body`: the pick is the document's now, no longer a draft. */
    carried: () => setDraft(undefined),
    /** A party chosen by name gives a document without a category its own, as recognition does for a party it knows. */
    takePartyCategory(category: CategoryOption | null | undefined) {
      if (!category || draft !== undefined || receipt?.category_id) return;
      setPartyCategory(category);
      void pick(category.id);
    },
  };
}
