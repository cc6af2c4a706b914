/** Whether a character may appear in XML 1.0 text: tab, line feed, carriage return, and everything from space up. */
const allowed = (char: string) => char >= ' ' || char === '\t' || char === '\n' || char === '\r';

/**
 * Escapes text for an XML attribute value or element: markup characters and quotes, line breaks kept as
 * `&#10;` and tabs as `&#9;` (an attribute would otherwise fold them into spaces), and characters XML cannot hold dropped.
 */
export function escapeXml(text: string): string {
  return [...text]
    .filter(allowed)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r?\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}
