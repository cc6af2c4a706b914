/** A file name for a map's export: its title with characters unsafe in file names removed, and the extension. */
export function mapFileName(title: string, extension: string): string {
  const base = title
    .replace(/[\\/:*?"<>|\s？：]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'thinking-map'}.${extension}`;
}
