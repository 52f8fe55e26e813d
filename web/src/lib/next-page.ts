/** What the bottom of an infinite list reads of its query (react-query's infinite query result). */
export interface NextPageState {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isPending: boolean;
  isError: boolean;
  /** Any fetch of the list under way (a next page or a reload). */
  isFetching: boolean;
  /** The last fetch was a next page and it failed (after the query client's retries); the loaded pages are kept. */
  isFetchNextPageError: boolean;
  /** A reload of the loaded pages failed (a live catch-up, an action's refresh); the pages as they were are kept. */
  isRefetchError: boolean;
}

/**
 * Whether reaching the list's bottom loads the next page by itself. Not after a next page failed: the list would
 * ask again at once, for as long as the screen is open (a 4xx is not retried by the query client, so tens of
 * requests a second); the user asks again with Try again under the rows.
 */
export function loadsMoreOnScroll(q: NextPageState): boolean {
  return q.hasNextPage && !q.isFetchingNextPage && !q.isPending && !q.isFetchNextPageError && !q.isRefetchError;
}

/**
 * Whether the list shows its error view in place of the rows: the first page failed, so there are none. A failed
 * next page or a failed reload of the loaded pages keeps the rows on screen (and the place in the list), with the
 * reason and Try again under them.
 */
export function failsWholeList(q: NextPageState): boolean {
  return q.isError && !q.isFetchNextPageError && !q.isRefetchError;
}

/** Whether the row under the list says that its next page (or a reload of its pages) failed and offers Try again. */
export function showsNextPageError(q: NextPageState): boolean {
  return (q.isFetchNextPageError || q.isRefetchError) && !q.isFetching;
}
