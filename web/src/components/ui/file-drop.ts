/**
 * Files dragged from the desktop. A file dropped where no drop zone takes it would be opened by the browser itself,
 * which leaves the app (and an edit screen's unsaved changes): one listener for the whole app cancels that, and
 * shows the pointer as "no drop" there. A drop zone (Dropzone) cancels the events itself and takes the files.
 */

/** Whether a drag carries files (not text or a link dragged inside the page). */
export function dragCarriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

let installed = false;

export function keepFileDropsInApp(): void {
  if (installed) return;
  installed = true;
  const refuse = (e: DragEvent) => {
    if (e.defaultPrevented || !dragCarriesFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'none';
  };
  window.addEventListener('dragover', refuse);
  window.addEventListener('drop', refuse);
}
