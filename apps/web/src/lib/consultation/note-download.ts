import { download } from '../export/download.ts';

/**
 * Downloads a note from the server's note route (`downloadUrl`, answered as an attachment), sending the API
 * token the page signed in with; resolves with whether it worked.
 */
export async function downloadNote(url: string, token: string | null, fileName: string): Promise<boolean> {
  try {
    const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!response.ok) return false;
    download(await response.blob(), fileName);
    return true;
  } catch {
    return false;
  }
}
