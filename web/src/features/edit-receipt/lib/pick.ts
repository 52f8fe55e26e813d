import { CONTENT_MSG, type Box } from '../../../../../shared/schemas/content';

/**
 * Whether an area drawn on the page holds a word, as the server reads an area: a word whose centre is inside it
 * (lambdas/core/content/read.ts). An area with none would give the field an empty value: it is not sent.
 */
export function hasWordIn(words: readonly Box[], area: Box): boolean {
  return words.some((w) => {
    const x = w.left + w.width / 2;
    const y = w.top + w.height / 2;
    return x >= area.left && x <= area.left + area.width && y >= area.top && y <= area.top + area.height;
  });
}

/** Said when an area drawn on the page has no text in it (the field keeps its value). */
export const NO_TEXT_IN_AREA = CONTENT_MSG.noTextInArea;
