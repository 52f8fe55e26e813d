import { InfiniteQueryObserver, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../web/src/lib/api-error';
import { failsWholeList, loadsMoreOnScroll, showsNextPageError } from '../../../web/src/lib/next-page';
import { createQueryClient } from '../../../web/src/lib/query-client';

/**
 * The bottom of an infinite list against react-query with the app's query client (its retry rule and delays): a
 * failed next page stops the loading on scroll, keeps the loaded pages and is loaded again by Try again.
 */

type Page = { items: number[]; next: number | null };

/** A list of three pages; `fail` decides the answer of each call for a page after the first. */
function setup(fail: (page: number) => Error | null, failFirst: Error | null | (() => Error | null) = null) {
  const qc: QueryClient = createQueryClient();
  const calls: number[] = [];
  const observer = new InfiniteQueryObserver<Page, Error, InfiniteData<Page>, string[], number>(qc, {
    queryKey: ['list'],
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      calls.push(pageParam);
      const error = pageParam === 0 ? (typeof failFirst === 'function' ? failFirst() : failFirst) : fail(pageParam);
      if (error) throw error;
      return { items: [pageParam * 10, pageParam * 10 + 1], next: pageParam < 2 ? pageParam + 1 : null };
    },
    getNextPageParam: (last) => last.next,
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return { qc, observer, calls, unsubscribe };
}

/** The sentinel near the viewport for `ms`: the bottom asks for the next page whenever the list lets it. */
async function stayAtBottom(observer: InfiniteQueryObserver<Page, Error, InfiniteData<Page>, string[], number>, ms: number) {
  for (let t = 0; t < ms; t += 100) {
    if (loadsMoreOnScroll(observer.getCurrentResult())) void observer.fetchNextPage();
    await vi.advanceTimersByTimeAsync(100);
  }
}

const serverError = () => new ApiError(500, 'Error', 'Something went wrong');
const badRequest = () => new ApiError(400, 'BadRequest', 'Invalid next');

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a failed next page', () => {
  it('a 5xx is retried twice with pauses, then the list stops asking and keeps the first page', async () => {
    const { observer, calls, unsubscribe } = setup(() => serverError());
    await stayAtBottom(observer, 10_000);
    const result = observer.getCurrentResult();
    expect(calls).toEqual([0, 1, 1, 1]);
    expect(result.isFetchNextPageError).toBe(true);
    expect(result.data?.pages.map((p) => p.items)).toEqual([[0, 1]]);
    expect(loadsMoreOnScroll(result)).toBe(false);
    expect(failsWholeList(result)).toBe(false);
    expect(showsNextPageError(result)).toBe(true);
    unsubscribe();
  });

  it('a 4xx is asked once and not again while the list stays at its bottom', async () => {
    const { observer, calls, unsubscribe } = setup(() => badRequest());
    await stayAtBottom(observer, 10_000);
    expect(calls).toEqual([0, 1]);
    expect(observer.getCurrentResult().error?.message).toBe('Invalid next');
    expect(failsWholeList(observer.getCurrentResult())).toBe(false);
    unsubscribe();
  });

  it('Try again loads the page and the loading on scroll goes on to the last page', async () => {
    let down = true;
    const { observer, calls, unsubscribe } = setup(() => (down ? badRequest() : null));
    await stayAtBottom(observer, 2_000);
    expect(calls).toEqual([0, 1]);
    down = false;
    const retrying = observer.fetchNextPage();
    // while Try again loads, the row shows the spinner, not the failure
    expect(showsNextPageError(observer.getCurrentResult())).toBe(false);
    const retried = await retrying;
    expect(retried.isError).toBe(false);
    expect(retried.data?.pages).toHaveLength(2);
    expect(loadsMoreOnScroll(observer.getCurrentResult())).toBe(true);
    await stayAtBottom(observer, 2_000);
    expect(calls).toEqual([0, 1, 1, 2]);
    expect(observer.getCurrentResult().data?.pages.flatMap((p) => p.items)).toEqual([0, 1, 10, 11, 20, 21]);
    expect(loadsMoreOnScroll(observer.getCurrentResult())).toBe(false);
    unsubscribe();
  });

  it('a reload of the loaded pages that fails keeps the rows, stops the loading on scroll and is made again by Try again', async () => {
    let down = false;
    const { observer, calls, unsubscribe } = setup(() => null, () => (down ? badRequest() : null));
    await stayAtBottom(observer, 1_000);
    expect(observer.getCurrentResult().data?.pages).toHaveLength(3);
    down = true;
    await observer.refetch();
    await vi.advanceTimersByTimeAsync(5_000);
    const failed = observer.getCurrentResult();
    expect(failed.isRefetchError).toBe(true);
    expect(failed.data?.pages.flatMap((p) => p.items)).toEqual([0, 1, 10, 11, 20, 21]);
    expect(failsWholeList(failed)).toBe(false);
    expect(showsNextPageError(failed)).toBe(true);
    expect(loadsMoreOnScroll(failed)).toBe(false);
    down = false;
    const again = await observer.refetch();
    expect(again.isError).toBe(false);
    expect(showsNextPageError(observer.getCurrentResult())).toBe(false);
    expect(calls.filter((c) => c === 0)).toHaveLength(3);
    unsubscribe();
  });

  it('a first page that fails is the whole list failing, and nothing loads on scroll', async () => {
    const { observer, calls, unsubscribe } = setup(() => null, badRequest());
    await stayAtBottom(observer, 2_000);
    const result = observer.getCurrentResult();
    expect(calls).toEqual([0]);
    expect(failsWholeList(result)).toBe(true);
    expect(loadsMoreOnScroll(result)).toBe(false);
    expect(showsNextPageError(result)).toBe(false);
    unsubscribe();
  });
});
