/** The Google and Dropbox notes of the Integration screen: skipped files counted exactly, a paused folder named. */
import { describe, expect, it } from 'vitest';
import { moreSkippedText, pausedFolderText, SKIPPED_SHOWN } from '../../../web/src/features/drive-import/lib/note';

const named = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `photo-${i}.heic`, reason: 'This file type is not allowed', at: '2026-12-02T10:00:00.000Z' }));

describe('drive import note', () => {
  it('says how many more files were skipped from the exact count, not from the names kept', () => {
    expect(moreSkippedText({ skipped_files: named(20), skipped_total: 251 }, SKIPPED_SHOWN)).toBe('and 246 more');
    expect(moreSkippedText({ skipped_files: named(7), skipped_total: 7 }, SKIPPED_SHOWN)).toBe('and 2 more');
    expect(moreSkippedText({ skipped_files: named(3), skipped_total: 3 }, 3)).toBeNull();
  });

  it('names the folder a refused grant paused, and how to continue', () => {
    expect(pausedFolderText({ paused_folder_name: '/Receipts inbox' }, false)).toBe('Folder /Receipts inbox is paused: switch the import on to continue, files added meanwhile included.');
    expect(pausedFolderText({ paused_folder_name: 'Scans' }, true)).toBe('Folder Scans is paused: choose it again in Edit Folder to continue, files added meanwhile included.');
    expect(pausedFolderText({ paused_folder_name: null }, false)).toBeNull();
    expect(pausedFolderText(undefined, false)).toBeNull();
  });
});
