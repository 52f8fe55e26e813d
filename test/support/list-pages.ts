import { expect } from 'vitest';
import type { registeredUser } from './local-stack';

type Api = Awaited<ReturnType<typeof registeredUser>>['api'];
type Page = { items: { receipt_id: string }[]; next: string | null };

/** The ids of every page of GET /receipts?<query> (at most 20 pages), in the list's order. */
export async function listedIds(as: Api, query: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const res = await as.get(`/receipts?${query}${next ? `&next=${encodeURIComponent(next)}` : ''}`);
    expect(res.status).toBe(200);
    const body = res.body as Page;
    ids.push(...body.items.map((d) => d.receipt_id));
    next = body.next;
    pages += 1;
  } while (next && pages < 20);
  return ids;
}
