/** Hands a file to the browser's downloads. */
export function download(content: Blob, fileName: string): void {
  const url = URL.createObjectURL(content);
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference to the data once it starts; release ours after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
