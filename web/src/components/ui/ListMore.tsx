import { useCallback } from 'react';
import { messageOf } from '../../lib/api-error';
import { loadsMoreOnScroll, showsNextPageError, type NextPageState } from '../../lib/next-page';
import { useBottomReached } from '../../lib/use-bottom-reached';
import { Button } from './Button';
import { Spinner } from './Spinner';

/** The infinite query of a list, as its bottom uses it. */
export interface MorePages extends NextPageState {
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
  refetch: () => Promise<unknown>;
}

/**
 * The bottom of an infinite list, under its rows: the sentinel that loads the next page when scrolled to, the
 * spinner while it loads, and after a next page or a reload of the pages failed (the query client's retries
 * spent) the reason and Try again; the loaded rows stay and nothing more is asked until the user does.
 */
export function ListMore({ list }: { list: MorePages }) {
  const { fetchNextPage, refetch, isRefetchError } = list;
  const loadMore = useCallback(() => {
    void fetchNextPage();
  }, [fetchNextPage]);
  // After a failed reload the pages are read again, else the next page.
  const tryAgain = useCallback(() => {
    void (isRefetchError ? refetch() : fetchNextPage());
  }, [isRefetchError, refetch, fetchNextPage]);
  const sentinel = useBottomReached(loadMore, loadsMoreOnScroll(list));
  return (
    <>
      <div ref={sentinel} className="list-sentinel" aria-hidden="true" />
      {list.isFetchingNextPage && (
        <div className="list-more">
          <Spinner label="Loading more" />
        </div>
      )}
      {showsNextPageError(list) && (
        <div className="list-more list-more-error" data-testid="list-more-error">
          <p className="notice notice-error" role="alert">
            {messageOf(list.error)}
          </p>
          <Button variant="secondary" onClick={tryAgain}>
            Try again
          </Button>
        </div>
      )}
    </>
  );
}
