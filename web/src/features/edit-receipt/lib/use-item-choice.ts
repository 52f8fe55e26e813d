import { useEffect, useMemo, useRef, useState } from 'react';
import type { Item } from '../../../../../shared/schemas/master-data';
import { ITEM_SEARCH_MS, useDebounced, useItems } from '../api/master-data';
import { itemSearch } from './item-suggestions';
import { useStableCallback } from './stable';

const NO_ITEMS: Item[] = [];

/**
 * Line items' descriptions offer the company's items: typing in a cell of a column with the schema's `items` setting
 * (`itemSearch`) reads the items its text starts, after ITEM_SEARCH_MS; choosing one sets the cell to the item's name
 * (through `onChange`, as typing would), and free text stays. `itemChoice` is the cell and what is offered under it.
 */
export function useItemChoice(s: Omit<Parameters<typeof itemSearch>[0], 'chosen'> & { onChange(cell: string, value: string): void }) {
  const [chosenItem, setChosenItem] = useState<{ cell: string; name: string } | null>(null);
  const itemTyping = itemSearch({ ...s, chosen: chosenItem });
  // The cell and its text settle together: what was found for another cell is never offered under this one.
  const [itemCell = '', itemText = ''] = useDebounced(itemTyping ? `${itemTyping.cell}\u0000${itemTyping.text.trim()}` : '', ITEM_SEARCH_MS).split('\u0000');
  const itemsQ = useItems(itemTyping && itemCell === itemTyping.cell ? s.companyId : 'NONE', itemText);
  // (the previous search's items stay while the next one is read, in the same cell only)
  const itemsCell = useRef<string | null>(null);
  useEffect(() => {
    if (itemsQ.data && !itemsQ.isPlaceholderData) itemsCell.current = itemCell;
  }, [itemsQ.data, itemsQ.isPlaceholderData, itemCell]);
  const itemsShown = itemTyping !== null && itemCell === itemTyping.cell && (!itemsQ.isPlaceholderData || itemsCell.current === itemCell);
  const foundItems = itemsShown ? (itemsQ.data ?? NO_ITEMS) : NO_ITEMS;
  const itemChoice = useMemo(() => (itemTyping && foundItems.length ? { cell: itemTyping.cell, items: foundItems } : null), [itemTyping?.cell, foundItems]);
  const chooseItem = useStableCallback((cell: string, item: Item) => {
    setChosenItem({ cell, name: item.name });
    s.onChange(cell, item.name);
  });
  return { itemChoice, chooseItem };
}
