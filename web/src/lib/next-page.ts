/** What the bottom of an infinite list reads of its query (react-query's infinite query result). */
export interface NextPageState {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isPending: boolean;
  isError: boolean;
  /** The last fetch was a next page and it failed (after the query client's retries); the loaded pages are kept. */
  isFetchNextPageError: boolean;
}

/**
 * Whether reaching the list's bottom loads the next page by itself. Not after a next page failed: the list would
 * ask again at once, for as long as the screen is open (a 4xx is not retried by the query client, so tens of
 * requests a second); the user asks again with Try again under the rows.
 */
export function loadsMoreOnScroll(q: NextPageState): boolean {
  return q.hasNextPage && !q.isFetchingNextPage && !q.isPending && !q.isFetchNextPageError;
}

/**
 * Whether the list shows its error view in place of the rows: the first page (or a reload of the pages) failed.
 * A failed next page keeps the rows on screen, with Try again under them.
 */
export function failsWholeList(q: NextPageState): boolean {
  return q.isError && !q.isFetchNextPageError;
}

/** Whether the row under the list says that its next page failed and offers Try again. */
export function showsNextPageError(q: NextPageState): boolean {
  return q.isFetchNextPageError && !q.isFetchingNextPage;
}
