/** A content item of a GET /receipts/{id}/content answer by its id, at any depth (the content's own walk). */
import { walk } from '../../lambdas/core/content/tree';
import type { ContentItem } from '../../shared/schemas/content';

export function findContentItem(items: ContentItem[], id: string): ContentItem | undefined {
  for (const item of walk(items)) if (item.id === id) return item;
  return undefined;
}
