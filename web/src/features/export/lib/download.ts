/** Save a Blob as a file through a temporary link (the browser's download). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // give the browser time to start the download before the URL goes
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
