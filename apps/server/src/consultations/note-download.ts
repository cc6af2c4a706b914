/** The route prefix notes are downloaded from: `GET /notes/<mapId>/<path>`. */
export const NOTES_ROUTE = '/notes/';

/** The download path of a map's note (each path segment URL-encoded). */
export function noteDownloadPath(mapId: string, path: string): string {
  return `${NOTES_ROUTE}${encodeURIComponent(mapId)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}
